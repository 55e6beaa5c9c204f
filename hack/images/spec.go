package main

// imageSpec is one image `make images` writes: a static binary and nothing else but
// the files a process expects (/etc/passwd, /etc/group, /tmp).
type imageSpec struct {
	// name is the repository under the registry (kruise-native/<name>).
	name string
	// pkg is the Go package built into the binary.
	pkg string
	// user is the image's default "uid:gid".
	user string
}

// nonRoot is the uid and gid the images run as where the process allows: distroless'
// "nonroot", which the deploy manifests' runAsUser and fsGroup name too.
const nonRoot = "65532:65532"

// images are what `make images` builds, in this order.
//
// kruise-node-daemon is the only one that runs as root: it talks to the container
// runtime's CRI socket, which containerd, CRI-O and k3s create as root:root 0660. A
// non-root process could connect only with gid 0 or a changed socket mode, and whoever
// can use that socket already controls every container of the node (it can start a
// privileged one), so a non-root uid would add little protection and break on
// runtimes that keep the default mode. The DaemonSet drops every capability and
// privilege escalation and mounts the root filesystem read-only: root here can open the
// socket (its owner) and nothing else of the host, which is not mounted.
var images = []imageSpec{
	{name: "kruise-apiserver", pkg: "./cmd/apiserver", user: nonRoot},
	{name: "kruise-controller", pkg: "./cmd/controller", user: nonRoot},
	{name: "kruise-node-daemon", pkg: "./cmd/node-daemon", user: "0:0"},
	// The pod sandbox for a node without registry access (containerd's sandbox_image).
	{name: "pause", pkg: "./hack/images/pause", user: nonRoot},
}

// repository is where the images are named: kruise-native/<name>.
const repository = "kruise-native"
