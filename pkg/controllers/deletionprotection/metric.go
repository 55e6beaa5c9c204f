package deletionprotection

import (
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

// unguardedDeletes counts deletions the protection label forbade that happened anyway
// (the webhook was unreachable, or not registered), by kind.
var unguardedDeletes = metrics.NewCounterVec(&metrics.CounterOpts{
	Namespace:      "kruise",
	Subsystem:      "deletion_protection",
	Name:           "unguarded_deletes_total",
	Help:           "Deletions of objects whose policy.kruise.io/delete-protection label forbade them, seen by kruise-controller after the fact (the deletion webhook fails open), by kind.",
	StabilityLevel: metrics.ALPHA,
}, []string{"kind"})

func init() { legacyregistry.MustRegister(unguardedDeletes) }
