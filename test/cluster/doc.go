// Package cluster is `make test-cluster`: Kruise Native installed with its Helm chart
// into a real single-node cluster on this machine (test/cluster/harness), with real
// pods — kruise-apiserver behind its Service, the Pod webhook called through it, the node
// daemon as a DaemonSet talking to a real containerd — and the repository's examples
// applied to it.
//
// Opt-in: it needs root, installs Debian packages when missing and changes the host
// (network devices, iptables, cgroups, sysctls) for the length of the run, restoring all
// of it at the end and checking that the host matches a snapshot taken before. Without
// KRUISE_TEST_CLUSTER=1 every test skips.
package cluster
