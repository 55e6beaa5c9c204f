// Package imagepuller is the node daemon's image pulling engine: it pulls the
// images a node's NodeImage lists through the CRI v1 ImageService, with a
// per-attempt timeout, jittered exponential backoff between attempts, an
// optional deadline for the whole task and a bound on concurrent pulls, and
// reports one Status per task.
//
// The engine knows nothing of the Kruise API types: the caller (the node
// daemon's NodeImage controller) maps each desired tag to a Task, passes the
// whole desired set to Manager.Sync and maps Manager.Statuses back onto the
// NodeImage status. Pull secrets are turned into CRI credentials with
// AuthsFromSecrets.
package imagepuller
