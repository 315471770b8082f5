//go:build !linux

package loader

// runLoops returns false: the event loop waits on its connections with Linux's epoll, so
// elsewhere every run takes the goroutine engine.
func (l *Loader) runLoops(chan<- *[]Result) bool { return false }

// runOpenLoops returns false, as runLoops does.
func (l *Loader) runOpenLoops(chan<- *[]Result) (int, int64, bool) { return 0, 0, false }
