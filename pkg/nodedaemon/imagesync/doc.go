// Package imagesync keeps a node's images in line with its NodeImage: every tag in
// spec.images becomes an imagepuller Task, and the puller's progress is written back to
// the NodeImage status.
//
// What is decided is kept apart from doing it: Plan (plan.go) and BuildStatus
// (status.go) are pure functions of the spec, the stored status and the puller's
// statuses, table-tested; Controller (controller.go) reads the NodeImage from an
// informer scoped to its node, reads its pull secrets through kruise-apiserver
// (nodeimages/<node>/pullsecrets), drives the puller and writes the
// status, once per burst of changes.
//
// Restarts: the daemon keeps nothing on disk. A tag whose stored status already shows
// the spec's version finished (Succeeded or Failed) is not pulled again; a tag stored as
// Waiting or Pulling is pulled again from the start, so a daemon killed in the middle of
// a pull finishes the job when it comes back.
package imagesync
