// Package lifecycle implements OpenKruise's pod lifecycle hooks for every Kruise
// workload: the lifecycle.apps.kruise.io/state label, the hooks that hold a pod in a
// Preparing* state while the pod carries the hook's labels or finalizers, and the
// KruisePodReady condition a hook with markPodNotReady turns False. It knows pods and
// pub.Lifecycle, never a workload kind, and it is pure: it says what to write, the
// workload writes it.
//
// States and who moves a pod between them:
//
//	create ──▶ PreparingNormal ──(preNormal: all labels/finalizers present)──▶ Normal
//	           (Normal straight away without a preNormal hook)
//	Normal ──(inPlaceUpdate: any present)──▶ PreparingUpdate ──(none present)──▶ Updating
//	Updating ──(update done)──▶ Updated ──(all present again)──▶ Normal
//	           (Normal straight away when all are present, or without the hook)
//	any ──(preDelete: any present, deletion wanted)──▶ PreparingDelete ──(none present)──▶ deleted
//
// The workload asks DecideDelete before deleting a pod, DecideInPlaceUpdate before
// updating one in place, DecideNormal on every sync, and CancelDelete when it wants a
// PreparingDelete pod back. Each answers with a Step (or nothing); Step.Apply gives the
// modified pod, or nil when there is nothing to write.
//
// Writes per pod (DESIGN.md, "Performance model"): a workload without lifecycle hooks
// pays nothing: the Normal label rides on the create, and no decision ever asks for a
// write. With hooks every state change is ONE write carrying the label, the timestamp
// annotation, re-added hook labels/finalizers and, when markPodNotReady changes
// KruisePodReady, the condition — as a pods/status patch, which accepts metadata
// changes together with status (the pod status strategy resets only spec,
// deletionTimestamp and ownerReferences). Updating costs nothing: it rides on the
// in-place update patch.
package lifecycle
