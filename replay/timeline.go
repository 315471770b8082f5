package replay

// bucket is an interval of the plan's timeline with requests due in it.
type bucket struct {
	index int64 // the interval's place from the start
	n     int64 // the requests due in it
}

// count adds a request due in interval i. Due times never go back, so a request falls in the
// last bucket or starts a new one after it.
func (p *Plan) count(i int64) {
	if k := len(p.buckets) - 1; k >= 0 && p.buckets[k].index == i {
		p.buckets[k].n++
		return
	}
	p.buckets = append(p.buckets, bucket{index: i, n: 1})
}

// Timeline counts the planned requests by due time in the first n intervals of the run, up to
// the last with a request; nil when none is due in them. A run's timeline ends where the run
// did: the log beyond is not drawn beside it, and a long quiet stretch of the log costs no
// memory.
func (p *Plan) Timeline(n int) []int64 {
	var out []int64
	for _, b := range p.buckets {
		if b.index >= int64(n) {
			break
		}
		if out == nil {
			out = make([]int64, 0, min(int64(n), p.buckets[len(p.buckets)-1].index+1))
		}
		for int64(len(out)) < b.index {
			out = append(out, 0)
		}
		out = append(out, b.n)
	}
	return out
}
