// Package validation checks apps.kruise.io objects (CloneSet, Advanced StatefulSet)
// in their internal (hub) form, the way OpenKruise's validating webhooks and
// Kubernetes' own workload validation do.
//
// Objects are expected to be defaulted already, but every function tolerates nil
// pointers and reports them instead of panicking.
package validation
