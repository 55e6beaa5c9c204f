// Package podwebhook is kruise-apiserver's admission webhook for core Pods, served on
// its TLS port: one AdmissionReview server (Server) running an explicit list of
// handlers (Handler), each declaring the operations and (sub)resources it acts on and
// whether it mutates the pod or validates the request. Mutating handlers are served at
// MutatePath, validating ones at ValidatePath, and the MutatingWebhookConfiguration
// and ValidatingWebhookConfiguration that make kube-apiserver call them are generated
// from the same list (WebhookConfigurations), so they cannot disagree.
//
// kruise-apiserver's chain (Handlers) mutates pod creates only: it injects the sidecars
// of the SidecarSets that select the new pod, holds containers back by launch
// priority, and (optionally) gives pods of Kruise workloads the KruisePodReady
// readiness gate. The pod webhook's one validating handler guards
// PodUnavailableBudgets (budget_guard.go): pod deletions, evictions and spec updates
// of covered, ready pods spend a slot of the budget or are refused with 429. Status
// writes never reach it.
//
// kube-apiserver sends each entry only the requests a handler may act on: the mutating
// one the creates a handler may change, the validating one the disruptions in
// namespaces with budgets or spreads. Each handler states them as CEL clauses
// (CallClauses), and a CallScopeKeeper per phase keeps their OR as the registration's
// match condition, widened by the KruisePodWebhookScope admission plugin before a
// SidecarSet, WorkloadSpread or PodUnavailableBudget is stored.
//
// The same server serves registrations other than the pod webhook's (Webhook): a
// handler names the one it belongs to, and each has its own path
// (/admission/<phase>/<webhook>) and scope in the generated configurations. The
// deletion-protection webhook (DeletionWebhook) validates DELETE of labelled
// Namespaces, CRDs, apps/v1 workloads, Services and Ingresses with
// pkg/deletionprotection's rule.
package podwebhook
