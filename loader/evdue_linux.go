//go:build linux

package loader

// dueList is a loop's requests in flight in the order of their deadlines. Every request gets
// the same timeout when it starts, so the order is the order of starts: a list, not a heap.
type dueList struct{ head, tail *loopUser }

func (d *dueList) push(u *loopUser) {
	u.prev, u.next, u.queued = d.tail, nil, true
	if d.tail != nil {
		d.tail.next = u
	} else {
		d.head = u
	}
	d.tail = u
}

func (d *dueList) remove(u *loopUser) {
	if !u.queued {
		return
	}
	if u.prev != nil {
		u.prev.next = u.next
	} else {
		d.head = u.next
	}
	if u.next != nil {
		u.next.prev = u.prev
	} else {
		d.tail = u.prev
	}
	u.prev, u.next, u.queued = nil, nil, false
}
