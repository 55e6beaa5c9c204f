// Package watchbuffer lets kruise-apiserver's watch cache hand events to a watch
// as fast as it produces them, whatever the speed of the connection that reads it.
//
// Every watch of an aggregated resource reaches its client through kube-apiserver's
// proxy, which copies each event onto a second connection. The watch cache gives a
// watcher about a second of events and closes it when that fills (it cannot block
// the other watchers for one slow reader). Behind the proxy a burst of writes on a
// busy machine fills that second, the watch is closed, and the client re-lists or
// re-watches through the whole chain: the tail of watch latency through the
// aggregator (test/bench/results/2026-11-26-watch.md). A CRD's watch, read by its
// client directly, rarely falls that far behind.
//
// Here each watch drains the cache's channel at once into a bounded queue of its
// own, and the HTTP response is written from that queue. The events are the cache's
// shared objects, so a queued event costs a pointer, not a copy. A watch whose
// queue overflows is ended as the cache would end it, and its client resumes from
// the last resource version it saw.
package watchbuffer
