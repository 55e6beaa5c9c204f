package batch

// Burst is the most objects a controller creates, deletes or updates of one kind in one
// sync, whatever number the user wrote (replicas, parallelism, burstReplicas, a
// partition): the rest waits for the next sync, which comes once the cache shows
// these writes (expectations) or, after a failure, after the queue's backoff. It is
// what keeps a controller's memory and the length of a sync independent of that
// number, as kube's ReplicaSet controller does with its burstReplicas of 500; a
// CloneSet of 2147483647 replicas costs one sync of 500 pod objects, not 2147483647.
// Every controller clamps with it (Clamp, First); there is no second bound elsewhere.
const Burst = 500

// Clamp returns n within 0..Burst.
func Clamp(n int) int {
	return min(max(n, 0), Burst)
}

// First returns at most the first Burst items (the same slice, shortened).
func First[T any](items []T) []T {
	if len(items) > Burst {
		return items[:Burst]
	}
	return items
}
