package watchbuffer

import (
	"sync"

	"k8s.io/apimachinery/pkg/watch"
)

// DefaultCapacity is how many events a watch may hold for its reader: at the
// benchmark's write rates tens of seconds of a namespace's events, for a few
// hundred KiB of pointers per watch at most.
const DefaultCapacity = 10000

// buffered forwards src's events through a queue of at most capacity events.
type buffered struct {
	src        watch.Interface
	onOverflow func()
	out        chan watch.Event
	stop       chan struct{}
	stopOnce   sync.Once
	capacity   int
}

// Wrap returns a watch that reads src eagerly and delivers its events in order.
// Closing or overflowing ends src too; onOverflow (when not nil) is told of an overflow.
func Wrap(src watch.Interface, capacity int, onOverflow func()) watch.Interface {
	if capacity <= 0 {
		capacity = DefaultCapacity
	}
	b := &buffered{src: src, onOverflow: onOverflow, out: make(chan watch.Event), stop: make(chan struct{}), capacity: capacity}
	go b.run()
	return b
}

func (b *buffered) ResultChan() <-chan watch.Event { return b.out }

func (b *buffered) Stop() { b.stopOnce.Do(func() { close(b.stop) }) }

func (b *buffered) run() {
	defer close(b.out)
	defer b.src.Stop()
	in := b.src.ResultChan()
	var q queue
	for {
		if in == nil && q.len() == 0 {
			return // the source ended and everything it sent was delivered
		}
		var out chan<- watch.Event
		var next watch.Event
		if q.len() > 0 {
			out, next = b.out, q.peek()
		}
		select {
		case ev, ok := <-in:
			if !ok {
				in = nil
				continue
			}
			if q.len() >= b.capacity {
				// The reader is further behind than we hold: end the watch, as the
				// watch cache would have, rather than grow without bound.
				if b.onOverflow != nil {
					b.onOverflow()
				}
				return
			}
			q.push(ev)
		case out <- next:
			q.pop()
		case <-b.stop:
			return
		}
	}
}

// queue is a FIFO of events whose backing array is reused once drained.
type queue struct {
	items []watch.Event
	head  int
}

func (q *queue) len() int { return len(q.items) - q.head }

func (q *queue) push(ev watch.Event) { q.items = append(q.items, ev) }

func (q *queue) peek() watch.Event { return q.items[q.head] }

func (q *queue) pop() {
	q.items[q.head] = watch.Event{} // let the object go
	q.head++
	switch {
	case q.head == len(q.items):
		q.items, q.head = q.items[:0], 0
	case q.head > 1024 && q.head*2 > len(q.items):
		// Mostly consumed: move the rest to the front so the array does not only grow.
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
}
