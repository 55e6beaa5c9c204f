package harness

import (
	"fmt"
	"net"
	"path/filepath"
	"strconv"

	"github.com/kruise-native/kruise-native/internal/reporoot"
)

// The node's addresses and names. None of them exists on a host that has not run the
// harness; Preflight refuses to start when one does.
const (
	// NodeName is the Node object's name (kubelet --hostname-override).
	NodeName = "kn-test-node"
	// NodeIP is the node's address: kube-apiserver and kubelet listen on it, and pods reach
	// kube-apiserver there through the kubernetes Service. It lives on NodeDevice, a bridge
	// with no ports (this kernel has no dummy device type), so it is local to this host and
	// no packet to it ever leaves the machine.
	NodeIP     = "10.255.88.1"
	NodeDevice = "kn-node0"
	// PodBridge is the CNI bridge; PodSubnet the node's pod addresses (PodCIDR the cluster's).
	PodBridge = "kn-cni0"
	PodCIDR   = "10.88.0.0/16"
	PodSubnet = "10.88.0.0/24"
	// ServiceCIDR does not overlap the local stacks' 10.96.0.0/16; KubernetesServiceIP is
	// the kubernetes Service's ClusterIP, the first address of it.
	ServiceCIDR         = "10.97.0.0/16"
	KubernetesServiceIP = "10.97.0.1"
	// CNINetwork names the pod network (CNI result cache, host-local's directory).
	CNINetwork = "kruise-native-test"
	// PauseImage is containerd's sandbox image: `make images`'s pause, imported.
	PauseImageRepo = "docker.io/kruise-native/pause"
)

// Fixed directories, so that a run killed before its teardown is cleaned up by the next
// one (Recover). StateDir holds what must survive a reboot of the harness (the host
// snapshot, containerd's content, etcd's data); RunDir the sockets and runtime state.
const (
	StateDir = "/var/lib/kruise-native-test-cluster"
	RunDir   = "/run/kruise-native-test-cluster"
)

// Layout names every file and directory of one cluster.
type Layout struct {
	Root    string // the repository
	BinDir  string // _output/bin: the kube binaries and helm
	LogDir  string // _output/test-cluster/logs: kept after teardown
	State   string
	Run     string
	PKI     string
	Ports   Ports
	Version string // the images' tag (VERSION)
}

// NewLayout is the layout for the repository at root.
func NewLayout(root string) Layout {
	return Layout{
		Root:   root,
		BinDir: filepath.Join(root, "_output", "bin"),
		LogDir: filepath.Join(root, "_output", "test-cluster", "logs"),
		State:  StateDir,
		Run:    RunDir,
		PKI:    filepath.Join(StateDir, "pki"),
	}
}

func (l Layout) Bin(name string) string { return filepath.Join(l.BinDir, name) }
func (l Layout) StatePath(p ...string) string {
	return filepath.Join(append([]string{l.State}, p...)...)
}
func (l Layout) RunPath(p ...string) string { return filepath.Join(append([]string{l.Run}, p...)...) }
func (l Layout) Log(name string) string     { return filepath.Join(l.LogDir, name+".log") }

// ContainerdSocket is where kubelet, ctr and the node daemon pods reach containerd. Its
// directory is what the node daemon mounts.
func (l Layout) ContainerdSocket() string { return l.RunPath("containerd", "containerd.sock") }

// Kubeconfig is the admin (system:masters) kubeconfig.
func (l Layout) Kubeconfig() string { return l.StatePath("kubeconfigs", "admin.kubeconfig") }

// APIServerURL is kube-apiserver's address on the node.
func (l Layout) APIServerURL() string {
	return "https://" + net.JoinHostPort(NodeIP, strconv.Itoa(l.Ports.KubeAPIServer))
}

// Ports are the TCP ports the harness listens on.
type Ports struct {
	KubeAPIServer, Etcd, EtcdPeer, KubeControllerManager, KubeScheduler int
	Kubelet, KubeletHealthz, KubeProxyHealthz, KubeProxyMetrics         int
	// OutsideEtcd and OutsideEtcdPeer: the etcd kruise-apiserver may use from outside
	// the pods (StartOutsideEtcd).
	OutsideEtcd, OutsideEtcdPeer int
}

// portRange is the harness's own: below the 20000-32000 the local stacks (and the
// integration tests' stacks) choose from, above every standard port they use, and below
// Linux's ephemeral range (32768+), so no client socket takes one either.
const (
	portRangeMin = 19400
	portRangeMax = 19499
)

// choosePorts picks free ports of portRange. A port counts as free when it can be bound
// on every address (0.0.0.0): then no process listens on it on any address.
func choosePorts() (Ports, error) {
	var free []int
	for p := portRangeMin; p <= portRangeMax && len(free) < 11; p++ {
		l, err := net.Listen("tcp", ":"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		_ = l.Close()
		free = append(free, p)
	}
	if len(free) < 11 {
		return Ports{}, fmt.Errorf("fewer than 11 free ports in %d-%d", portRangeMin, portRangeMax)
	}
	return Ports{
		KubeAPIServer: free[0], Etcd: free[1], EtcdPeer: free[2],
		KubeControllerManager: free[3], KubeScheduler: free[4],
		Kubelet: free[5], KubeletHealthz: free[6], KubeProxyHealthz: free[7], KubeProxyMetrics: free[8],
		OutsideEtcd: free[9], OutsideEtcdPeer: free[10],
	}, nil
}

// RepoRoot walks up from the working directory to the directory holding go.mod and
// hack/tools/build-node.sh.
func RepoRoot() (string, error) { return reporoot.Find() }
