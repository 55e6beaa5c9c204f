// Package workloadspread holds WorkloadSpread's decisions as pure functions shared by
// the pod webhook (which subset a new pod takes, what is injected into it) and the
// controller (the subset statuses, the pod deletion costs):
//
//   - A new pod takes the first subset, in spec order, with room: missingReplicas -1
//     (unlimited) or above 0, and not marked unschedulable (Adaptive). Taking it
//     decrements missingReplicas and records the pod in creatingPods, in the same
//     status write, so two writers deciding on the same resourceVersion conflict and
//     no subset ends over its maxReplicas.
//   - missingReplicas = maxReplicas - pods counted in the subset - creatingPods not
//     yet seen (-1 when unlimited, never below 0).
//   - On scale-down the last subsets empty first: a pod's pod-deletion-cost is higher
//     the earlier its subset; pods over their subset's maxReplicas cost least.
package workloadspread
