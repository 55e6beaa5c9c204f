// Package harness brings up a real single-node Kubernetes cluster on this machine for
// test/cluster (`make test-cluster`), and takes it down again leaving the host as it
// found it.
//
// The node: Debian's containerd (1.6) and runc on a private root, state and socket;
// the CNI bridge, host-local, portmap and loopback plugins on a pod network of its own;
// etcd, kube-apiserver, kube-controller-manager and kube-scheduler from _output/bin
// (`make tools`); kubelet and kube-proxy from _output/bin (hack/tools/build-node.sh);
// an in-process OCI registry on 127.0.0.1 that containerd reaches over plain HTTP.
//
// Everything is private to the harness where the programs allow it (see Layout), and the
// rest (sysctls kubelet and kube-proxy write, iptables chains, the bridge, kubepods
// cgroups, mounts, /run/containerd) is recorded in a snapshot of the host before
// anything starts, removed or restored on teardown, and compared with a second snapshot
// afterwards. The snapshot is kept on disk until the host is restored, so a run killed
// before its teardown is cleaned up by the next one.
//
// Other engineers run local stacks on 127.0.0.1 of this machine at the same time: the
// harness listens on ports of its own range (19400-19499, outside the 20000-32000 the
// local stacks pick from and below the ephemeral range), kube-apiserver and kubelet on
// an address no other host routes to (NodeIP on a device of its own), and touches no
// process it did not start.
package harness
