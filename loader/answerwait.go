package loader

import "time"

// SetReadDeadline sets the connection's read deadline (kept within its slack, see deadlines)
// and, once a request has been written on a plain TCP connection, waits there until its answer
// begins to arrive (or the deadline passes, or the connection fails). fasthttp sets the read deadline right after writing a request and
// only then takes a read buffer from its pool (ReadBufferSize, 4 to 16 KiB) to read the answer
// into: waiting before that, each user waiting for a slow server holds no read buffer, the
// largest part of what it holds. Whatever ended the wait, the read that follows finds it again
// (the answer, the timeout, the reset), so the wait changes no outcome.
//
// The wait is for runs that may hold many connections (Config.awaitsAnswers): it takes a look
// at the socket, a system call, on each request whose answer is there already, about 7 % of
// the client's CPU per request at 20 users on loopback, where the buffers it spares are a
// fraction of a megabyte.
//
// fasthttp calls it only when the request has a timeout, as the loader's always do; without one
// the wait is in the read, buffer held, as before. Connections under TLS or a proxy's tunnel are
// not waited on: those layers may hold bytes read from the socket already, which a look at the
// socket does not see.
func (c *wireConn) SetReadDeadline(t time.Time) error {
	if err := c.setReadDeadline(t); err != nil {
		return err
	}
	if c.awaits && c.writing && c.writeErr == nil && !c.lines.pending() {
		if _, plain := c.Conn.(*countingConn); plain {
			c.awaitAnswer()
		}
	}
	return nil
}
