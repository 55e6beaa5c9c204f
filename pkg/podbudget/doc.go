// Package podbudget is the arithmetic of a PodUnavailableBudget, shared by its
// controller (which counts the pods and writes status) and kruise-apiserver's pod
// webhook (which spends the budget one disruption at a time). Everything here is a
// pure function of its inputs: no clients, no clocks.
//
// The model:
//   - totalReplicas is what the budget counts: the target's spec.replicas, the
//     pub.kruise.io/protect-total-replicas annotation, or (selector, no annotation)
//     the selected pods that are not being deleted.
//   - desiredAvailable = minAvailable, or totalReplicas - maxUnavailable; a percent is
//     of totalReplicas, rounded up (as kube's PodDisruptionBudget).
//   - currentAvailable counts the selected pods that are available and not recorded
//     as disrupted (disruptedPods) or updating (unavailablePods) by the webhook.
//   - unavailableAllowed = max(0, currentAvailable - desiredAvailable).
//   - A budget that counts no replicas (its target is gone, or scaled to zero) lets
//     everything through: the garbage collector must be able to delete the pods of a
//     deleted workload.
//   - The webhook lets a disruption through only while unavailableAllowed > 0, and
//     records it (Spend) in the same status write that decrements unavailableAllowed:
//     the write carries the resourceVersion it read, so of two concurrent disruptions
//     competing for the last slot one write fails with a conflict, re-reads, and is
//     refused.
//   - The controller forgets a record once the pod is seen gone or terminating
//     (disruptedPods), or available again (unavailablePods), but never within Settle of
//     the record: its pod cache may not show the admitted change yet. A disruptedPods
//     record whose pod still runs after DeletionTimeout (the delete failed after
//     admission) is forgotten too.
package podbudget
