package podwebhook

import (
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/legacyregistry"
)

// handlerDuration is how long the server takes over one AdmissionReview, from its
// handler being called (after kruise-apiserver's authentication, authorization and
// priority-and-fairness filters) until the response is written. Set beside
// kube-apiserver's apiserver_admission_webhook_admission_duration_seconds it splits a
// slow call into our handler and what happens before it (transport, filters, queueing).
var handlerDuration = metrics.NewHistogramVec(&metrics.HistogramOpts{
	Namespace:      "kruise",
	Subsystem:      "pod_webhook",
	Name:           "handler_duration_seconds",
	Help:           "Time kruise-apiserver's webhook handler spent on one AdmissionReview, by webhook, phase and code.",
	Buckets:        []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5},
	StabilityLevel: metrics.ALPHA,
}, []string{"webhook", "phase", "code"})

func init() { legacyregistry.MustRegister(handlerDuration) }
