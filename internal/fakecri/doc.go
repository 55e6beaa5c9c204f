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
// kruise-node-daemon-dev (internal/devruntime) serves one and gives the node daemon
// "unix://"+socketPath as its CRI endpoint (kruise-node-daemon never links this package).
// In a test, configure the runtime first and look into it after:
//
//	srv := fakecri.NewServer()
//	srv.SetPullBehavior("*/private:*", fakecri.PullBehavior{Code: codes.PermissionDenied, Message: "unauthorized"})
//	srv.SetPullBehavior("flaky:*", fakecri.PullBehavior{FailFirst: 2, Latency: time.Second})
//	go fakecri.RunServerForNode(ctx, srv, socketPath, "kwok-node-0", kubeClient)
//	... the code under test talks CRI to socketPath ...
//	srv.Pulls()      // every PullImage with its credentials and outcome
//	srv.Containers() // containers with their env, state, exit code
//	srv.Execs()      // ExecSync calls (preStop hooks)
//
// Container IDs in pod status are "fakecri://<id>"; sandboxes and containers carry
// kubelet's io.kubernetes.* labels, so a CRI client finds a pod's containers as on a
// real node.
package fakecri
