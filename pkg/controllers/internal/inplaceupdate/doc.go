// Package inplaceupdate is the one implementation of in-place pod update shared by every
// Kruise workload (CloneSet, Advanced StatefulSet, SidecarSet, ...). It knows pods, pod
// templates and revisions, never a workload kind.
//
// Most of it is pure functions on k8s.io/api types; Executor is a thin layer that sends
// what they compute. The flow for one pod:
//
//	spec := CalculateSpec(oldTemplate, newTemplate, newRevision) // nil: recreate instead
//	newPod, _ := Prepare(pod, spec, revisionLabel, now)          // first batch, ONE patch
//	patch, _ := podpatch.Bytes(pod, newPod)                      // images + labels + state
//	... later, on every sync of the pod:
//	completed, nextBatch := CheckCompleted(pod)
//	nextBatch  → PrepareNext(pod, revisionLabel, now) + one patch
//	completed  → Finish(pod, now); one status write only if it changed something
//
// Writes per pod (see DESIGN.md, "Performance model: API writes per pod"): with
// gracePeriodSeconds 0 an image update costs one pod patch per container batch and
// nothing else (InPlaceUpdateReady stays True, so there is no False/True round trip).
// With gracePeriodSeconds > 0 it costs one pods/status patch (InPlaceUpdateReady=False
// together with the revision label, the state and the grace annotation), one pod patch
// after the grace, and one pods/status patch setting InPlaceUpdateReady=True at the end.
//
// Vertical scaling (Options.VerticalScaling, gate InPlaceWorkloadVerticalScaling):
// CalculateSpecWith also takes container cpu/memory changes the pods/resize subresource
// accepts (resize.go); CanResize decides per pod (its node reports container resources,
// its QoS class stays); the Executor sends the resize first, then the usual patch, so a
// resize costs one more write per pod; CheckCompleted waits for Resized (the status
// shows the spec's resources).
//
// The annotations keep OpenKruise's names and JSON (apps.kruise.io/inplace-update-state,
// apps.kruise.io/inplace-update-grace, apps.kruise.io/runtime-containers-meta), so tools
// that read them keep working.
package inplaceupdate
