package loader

import "time"

// fasthttp gives each request its deadline by setting the connection's write and read
// deadlines, twice a request. Each setting reads the clock twice and moves a runtime timer,
// a tenth of the client's own work a request on a fast server. A connection instead keeps a
// deadline it set while the next request's falls a little before it, and moves it a little
// further than asked when it must: once in deadlineSlack, not once a request. A request that
// runs past its timeout then fails at most that much later, and it fails as a timeout all the
// same, its whole time measured; never earlier.

// maxDeadlineSlack bounds how much later than its timeout a request may fail.
const maxDeadlineSlack = 100 * time.Millisecond

// deadlineSlack is how much later than asked a connection's deadline may fall for requests
// with timeout: a hundredth of it, at most maxDeadlineSlack.
func deadlineSlack(timeout time.Duration) time.Duration {
	return min(timeout/100, maxDeadlineSlack)
}

// deadlines are the deadlines a wireConn set on the connection under it, and how much later
// than asked they may fall.
type deadlines struct {
	read, write time.Time
	slack       time.Duration
	sets        int // how often a deadline was set on the connection, for tests
}

// keep tells whether a deadline set at cur still serves one asked for at t: none of them is
// zero, and cur is not before t nor more than slack after it.
func (d *deadlines) keep(cur, t time.Time) bool {
	return !cur.IsZero() && !t.IsZero() && !cur.Before(t) && !cur.After(t.Add(d.slack))
}

// later is the deadline to set when t is asked for: slack after it, so that the next requests'
// fall before it.
func (d *deadlines) later(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return t.Add(d.slack)
}

// setReadDeadline sets the read deadline at t or up to the slack after it (see deadlines).
func (c *wireConn) setReadDeadline(t time.Time) error {
	if c.dl.keep(c.dl.read, t) || (t.IsZero() && c.dl.read.IsZero()) {
		return nil
	}
	at := c.dl.later(t)
	if err := c.Conn.SetReadDeadline(at); err != nil {
		c.dl.read = time.Time{} // unknown: set it next time
		return err
	}
	c.dl.read = at
	c.dl.sets++
	return nil
}

// SetWriteDeadline sets the write deadline at t or up to the slack after it (see deadlines).
func (c *wireConn) SetWriteDeadline(t time.Time) error {
	if c.dl.keep(c.dl.write, t) || (t.IsZero() && c.dl.write.IsZero()) {
		return nil
	}
	at := c.dl.later(t)
	if err := c.Conn.SetWriteDeadline(at); err != nil {
		c.dl.write = time.Time{}
		return err
	}
	c.dl.write = at
	c.dl.sets++
	return nil
}

// SetDeadline sets both deadlines as SetReadDeadline and SetWriteDeadline do.
func (c *wireConn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.SetWriteDeadline(t)
}
