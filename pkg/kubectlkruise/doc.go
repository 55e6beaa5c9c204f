// Package kubectlkruise is the logic of the kubectl-kruise plugin: kubectl's rollout
// commands and scaledown for Kruise workloads. It is written on kubectl's own
// libraries (cli-runtime flags, resource builder and printers, kubectl's cmdutil) so
// that --namespace, --context, -f, -l, -o and --dry-run behave as they do in kubectl;
// undo goes through the server-side rollback subresource.
package kubectlkruise
