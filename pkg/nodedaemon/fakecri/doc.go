// Package fakecri is an in-memory CRI v1 container runtime that speaks real gRPC on a
// unix socket, and a kubelet simulator that drives it for one kwok node.
//
// There is no container runtime on the machines the integration tests run on, and kwok
// nodes have no kubelet. kruise-node-daemon still needs a CRI endpoint to pull images and
// to recreate containers, and tests need to see what it did. Server stands in for
// containerd: images, pod sandboxes and containers live in memory, every RuntimeService
// and ImageService call a kubelet-like client makes answers with data of the shapes
// containerd gives (including the verbose ContainerStatus info the node daemon reads the
// env from), and the behaviour of pulls (latency, failures, missing images) is set by
// tests. KubeletSim plays the kubelet's part on top of it for pods that kwok has made
// Running: one sandbox and one running container per pod container, restarts of exited
// containers, and containerID/restartCount/lastState in the pod's status.
//
// RunForNode serves a Server and runs a KubeletSim for one node until its context ends;
// kruise-node-daemon calls it behind a development flag.
package fakecri
