// Package containerd runs the node daemon's CRI code against a real containerd
// (Debian's containerd 1.6 package), where every other test uses the in-memory
// fakecri runtime.
//
// The test is opt-in: it starts processes as root and writes under /run/containerd/s
// (where containerd 1.6 puts shim sockets, named by a hash of our private socket, so
// nothing collides with a system containerd). `make test-containerd` installs
// containerd when missing and runs it with KRUISE_TEST_CONTAINERD=1; without that
// variable every test skips. Everything else is private to the test: containerd's
// root, state, socket, runc root and registry configuration live in a temporary
// directory, and the images come from an in-process OCI registry on 127.0.0.1, so
// nothing is fetched from the network.
//
// What runs: imagepuller.Manager pulls over CRI (success with containerd's image
// ID, IfNotPresent answered by the real ImageStatus, a missing tag failing with
// containerd's error after its retries, credentials reaching the registry through
// the CRI AuthConfig), and containerrecreate.Executor stops a real container
// (preStop exec through ExecSync, SIGTERM within the grace period, SIGKILL after
// it). Where containerd cannot start, or cannot run containers on this machine,
// the test skips with the runtime's own error and log; it never passes without
// having run.
package containerd
