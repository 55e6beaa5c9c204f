package fakecri

import (
	"maps"
	"sync"
	"time"
)

// EventType says what changed in the runtime.
type EventType string

const (
	EventImagePulled       EventType = "ImagePulled"
	EventImageRemoved      EventType = "ImageRemoved"
	EventSandboxCreated    EventType = "SandboxCreated"
	EventSandboxStopped    EventType = "SandboxStopped"
	EventSandboxRemoved    EventType = "SandboxRemoved"
	EventContainerCreated  EventType = "ContainerCreated"
	EventContainerStarted  EventType = "ContainerStarted"
	EventContainerExited   EventType = "ContainerExited"
	EventContainerRemoved  EventType = "ContainerRemoved"
	EventContainerExecuted EventType = "ContainerExecuted"
)

// Event is one change. ID is the image reference, sandbox ID or container ID; Labels
// are the sandbox's or container's labels (for containers they name the pod, which is
// how KubeletSim finds the pod whose container exited).
type Event struct {
	Type      EventType
	ID        string
	SandboxID string
	Labels    map[string]string
	Time      time.Time
}

// Subscribe returns a channel that receives every event from now on, in order, and a
// function that ends the subscription (call it, or the subscription's goroutine stays).
// Events queue up without bound while the reader is slow: a subscriber never blocks the
// runtime and never misses an event.
func (s *Server) Subscribe() (<-chan Event, func()) {
	sub := &subscription{
		wake: make(chan struct{}, 1),
		out:  make(chan Event),
		done: make(chan struct{}),
	}
	s.mu.Lock()
	s.subs[sub] = struct{}{}
	s.mu.Unlock()
	go sub.pump()
	var once sync.Once
	return sub.out, func() {
		once.Do(func() {
			s.mu.Lock()
			delete(s.subs, sub)
			s.mu.Unlock()
			close(sub.done)
		})
	}
}

// publish queues ev for every subscriber; the caller holds s.mu.
func (s *Server) publish(ev Event) {
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	for sub := range s.subs {
		e := ev
		e.Labels = maps.Clone(ev.Labels)
		sub.push(e)
	}
}

type subscription struct {
	mu    sync.Mutex
	queue []Event
	wake  chan struct{}
	out   chan Event
	done  chan struct{}
}

func (sub *subscription) push(ev Event) {
	sub.mu.Lock()
	sub.queue = append(sub.queue, ev)
	sub.mu.Unlock()
	select {
	case sub.wake <- struct{}{}:
	default:
	}
}

// pump moves queued events to out until the subscription ends; out is closed then.
func (sub *subscription) pump() {
	defer close(sub.out)
	for {
		sub.mu.Lock()
		var next Event
		have := len(sub.queue) > 0
		if have {
			next = sub.queue[0]
		}
		sub.mu.Unlock()
		if !have {
			select {
			case <-sub.wake:
				continue
			case <-sub.done:
				return
			}
		}
		select {
		case sub.out <- next:
			sub.mu.Lock()
			sub.queue[0] = Event{}
			sub.queue = sub.queue[1:]
			sub.mu.Unlock()
		case <-sub.done:
			return
		}
	}
}
