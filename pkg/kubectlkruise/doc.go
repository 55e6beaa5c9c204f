// Package kubectlkruise is the logic of the kubectl-kruise plugin: kubectl's rollout,
// set and describe commands for Kruise workloads, OpenKruise's create (job and
// broadcastjob --from=acj/NAME, containerrecreaterequest), get all, exec -S and expose,
// plus scaledown, migrate, version and completion. It is written on kubectl's own
// libraries (cli-runtime flags, resource builder and printers, kubectl's cmdutil) so
// that --namespace, --context, -f, -l, -o and --dry-run behave as they do in kubectl.
// Where kubectl already has the command, the plugin runs kubectl's own (set, describe,
// create, get, exec, expose, completion) and teaches it the Kruise kinds: their types
// in kubectl's scheme (scheme.go), their pod templates and selectors in kubectl's
// polymorphic helpers (podtemplate.go, exec.go, expose.go), a workload describer
// (describe.go). undo goes through the server-side rollback subresource; migrate's
// decisions are the pure planMigration (migrate_plan.go).
package kubectlkruise
