// Package deletionprotection makes the deletions that got past deletion protection
// visible. kruise-apiserver's deletion webhook fails open (failurePolicy Ignore): while
// kruise-apiserver is unreachable, a labelled Namespace, CRD or apps/v1 workload can be
// deleted although the label forbids it. This controller watches the labelled objects
// of those kinds (an informer filtered on the label, so nothing else is cached) and,
// when one's deletion begins (deletionTimestamp set, or gone without one), applies the
// same rule (pkg/deletionprotection) to its last state: a deletion the rule refuses
// is one the webhook did not guard. It counts it in
// kruise_deletion_protection_unguarded_deletes_total{kind}, logs it and records a
// Warning event UnguardedDeletion.
//
// A Cascading object's children are counted as when its deletion began (pods deleted
// from then on still count), but from what is left: a namespace's pods in the cache,
// a CRD's objects listed when the event arrives. The namespace controller and the CRD
// finalizer remove them right away, so such a miss can go uncounted; an Always miss,
// and a workload's replicas, never do. An object whose label is removed before its
// deletion is not protected and is not counted: the filtered watch reports the
// removal as a DELETED event too, told apart by reading the object at that event's
// revision.
package deletionprotection
