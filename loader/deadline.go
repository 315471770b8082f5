package loader

import "time"

// fasthttp bounds a request with its timeout by setting the connection's write deadline before
// writing and its read deadline, to the same instant, before reading. Set apart, the two cost
// the runtime two timers per request and three timer changes; set together, one timer and one
// change. So the write deadline sets both, and the read deadline that follows at the same
// instant is already in place.
//
// The read deadline set early bounds nothing more: no read happens on the connection between
// the request's write and its answer.

// SetWriteDeadline sets the read deadline too (see above).
func (c *wireConn) SetWriteDeadline(t time.Time) error {
	c.readSet = false
	if err := c.Conn.SetDeadline(t); err != nil {
		return err
	}
	c.readSet, c.readAt = true, t
	return nil
}

// SetReadDeadline skips a deadline the write deadline set already, once.
func (c *wireConn) SetReadDeadline(t time.Time) error {
	if c.readSet && t.Equal(c.readAt) {
		c.readSet = false
		return nil
	}
	c.readSet = false
	return c.Conn.SetReadDeadline(t)
}

// SetDeadline sets both deadlines.
func (c *wireConn) SetDeadline(t time.Time) error {
	c.readSet = false
	return c.Conn.SetDeadline(t)
}
