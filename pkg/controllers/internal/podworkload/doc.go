// Package podworkload holds what the controllers of pod-owning workloads (CloneSet,
// Advanced StatefulSet, Advanced DaemonSet, BroadcastJob) share, in the spirit of
// kube's pkg/controller/controller_utils.go: helpers a controller calls from its own
// sync, not a generic controller. Each controller keeps its sync, its rollout math (a
// pure function) and how it computes its status.
//
//   - Base: the wiring every kind wrote alike — the work loop, the workload's and its
//     pods' event handlers, the expectations dropped with a deleted workload — and Get,
//     which hands a sync the cached workload only when there is something to do with
//     it. A controller embeds it and gives it its kind's API (Get, Status,
//     UpdateStatus: a few lines per kind).
//   - StatusWriter: the one writer of a kind's status. It skips an unchanged status,
//     remembers the resourceVersion it wrote and holds syncs off an older cached copy
//     (whose status write would only conflict), and applies the kind's DeferralRule
//     (the DaemonSet leaves a write to a later sync while its pod writes are about to
//     change the counts). UnitedDeployment, SidecarSet and AdvancedCronJob use it
//     without the rest of Base.
//   - Load: the workload's pods from the owner-UID index, once the cache shows this
//     controller's own creations, deletions and updates (expectations); claimed as kube's
//     ClaimPods does (Claim); and its revisions.
//   - CreatePods / DeletePods: expectations, slow start, claims (PVCs), lifecycle
//     preDelete hooks, and events with OpenKruise's reasons (SuccessfulCreate,
//     FailedCreate, SuccessfulDelete, FailedDelete) worded as each workload's
//     OpenKruise controller words them (EventText).
//   - UpdateInPlace / RefreshInPlace / InitializePods / ApplyStep: the in-place and
//     lifecycle glue around inplaceupdate.Executor and lifecycle.Writer, each write
//     remembered so the next sync waits for the cache to show it.
//   - StatusUnchanged: the rule that a status is written only when it changed beyond
//     condition timestamps (StatusWriter applies it).
//
// Every pod write goes through one podpatch.Patcher (or a create/delete) with the
// controller's name as field manager.
//
// # Versioned types, not the hub
//
// Controllers work on the versioned type their informer delivers (v1beta1 CloneSet and
// StatefulSet, v1alpha1 for kinds served only there), never on the internal hub type of
// pkg/apis/apps. The informer holds the storage version already defaulted by the
// server, so reading it directly costs no conversion per sync, where the hub costs two
// (versioned → hub to read, hub → versioned to write status) of the whole object,
// template included. The hub type is the server's: validation, defaulting rules and
// conversion live there, and a controller never needs a conversion scheme.
// SidecarSet's controller still converts to the hub type: the sidecar hash it shares
// with the pod webhook (pkg/sidecarset) is defined on it.
package podworkload
