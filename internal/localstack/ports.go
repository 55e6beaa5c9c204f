package localstack

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Component names. Kruise replicas of the HA topology are <name>-<i>.
const (
	Etcd                  = "etcd"
	KubeAPIServer         = "kube-apiserver"
	KubeControllerManager = "kube-controller-manager"
	KubeScheduler         = "kube-scheduler"
	Kwok                  = "kwok"
	KruiseAPIServer       = "kruise-apiserver"
	KruiseController      = "kruise-controller"
	// KruiseEtcd is the prefix of the HA etcd members, kruise-etcd-0..2.
	KruiseEtcd = "kruise-etcd"
	// LoadBalancer is HAProxy in front of the kruise-apiserver replicas (HA only).
	LoadBalancer = "haproxy"
	// NodeDaemonPrefix + node name: the node daemon of that node.
	NodeDaemonPrefix = "kruise-node-daemon-"
	// NodeDaemonBin is what node daemons run: the production daemon with an in-process
	// fake runtime and kubelet simulator (kwok nodes have no CRI runtime).
	NodeDaemonBin = "kruise-node-daemon-dev"
)

// HA topology sizes.
const (
	HAEtcdMembers       = 3
	HAAPIServerReplicas = 2
	HAControllerReplica = 2
)

// A stack at PORT_BASE uses PORT_BASE+0..PortSpan-1 (PortSpanHA with HA): offsets 0..9
// the components, 10..19 the first ten node daemons, 20..29 the HA replicas.
const (
	PortSpan   = 20
	PortSpanHA = 40
)

// DaemonPorts is how many node daemons get a fixed health port.
const DaemonPorts = 10

type portDef struct{ std, offset int }

var fixedPorts = map[string]portDef{
	"kube-apiserver": {6443, 0}, "etcd": {2379, 1}, "etcd-peer": {2380, 2},
	"kube-controller-manager": {10257, 3}, "kube-scheduler": {10259, 4}, "kwok": {10247, 5},
	// with HA: the load balancer's port, the one APIServices and webhooks use
	"kruise-apiserver": {9443, 6},
	"kruise-etcd":      {12379, 7}, "kruise-etcd-peer": {12380, 8},
	"kruise-controller": {10270, 9},
}

// portOrder is the order `ports` prints.
var portOrder = []string{"kube-apiserver", "etcd", "etcd-peer", "kube-controller-manager", "kube-scheduler",
	"kwok", "kruise-apiserver", "kruise-etcd", "kruise-etcd-peer", "kruise-controller"}

// Ports are the ports of a stack; the map form (Map) is keyed as hack/LOCAL.md names them.
type Ports struct {
	KubeAPIServer, Etcd, EtcdPeer, KubeControllerManager, KubeScheduler, Kwok int
	// KruiseAPIServer is where kube-apiserver reaches kruise-apiserver: the server itself,
	// or with HA the load balancer.
	KruiseAPIServer int
	// KruiseEtcd and KruiseEtcdPeer: the embedded etcd (without HA).
	KruiseEtcd, KruiseEtcdPeer int
	// KruiseController serves /healthz, /readyz, /metrics (without HA).
	KruiseController int
	// NodeDaemons: component name -> health port, for the first DaemonPorts nodes.
	NodeDaemons map[string]int
	// HA only: each kruise-apiserver and kruise-controller replica, and each etcd member.
	KruiseAPIServerReplicas  []int
	KruiseControllerReplicas []int
	EtcdMembers              []EtcdMemberPorts
}

// EtcdMemberPorts are the client and peer ports of one etcd member.
type EtcdMemberPorts struct{ Client, Peer int }

func layoutPorts(base, nodes int, ha bool) Ports {
	at := func(name string) int {
		d := fixedPorts[name]
		if base == 0 {
			return d.std
		}
		return base + d.offset
	}
	// HA replica ports: standard 9444+i (apiservers), 10271+i (controllers),
	// 12381+2i/12382+2i (etcd members); with PORT_BASE offsets 20.. onwards.
	ha0 := func(std, offset int) int {
		if base == 0 {
			return std
		}
		return base + 20 + offset
	}
	p := Ports{
		KubeAPIServer: at("kube-apiserver"), Etcd: at("etcd"), EtcdPeer: at("etcd-peer"),
		KubeControllerManager: at("kube-controller-manager"), KubeScheduler: at("kube-scheduler"),
		Kwok: at("kwok"), KruiseAPIServer: at("kruise-apiserver"),
		KruiseEtcd: at("kruise-etcd"), KruiseEtcdPeer: at("kruise-etcd-peer"),
		KruiseController: at("kruise-controller"),
		NodeDaemons:      map[string]int{},
	}
	for i := 0; i < nodes && i < DaemonPorts; i++ {
		name := NodeDaemonPrefix + NodeName(i)
		if base == 0 {
			p.NodeDaemons[name] = 10280 + i
		} else {
			p.NodeDaemons[name] = base + 10 + i
		}
	}
	if ha {
		for i := 0; i < HAEtcdMembers; i++ {
			p.EtcdMembers = append(p.EtcdMembers, EtcdMemberPorts{Client: ha0(12381+2*i, 2*i), Peer: ha0(12382+2*i, 2*i+1)})
		}
		for i := 0; i < HAAPIServerReplicas; i++ {
			p.KruiseAPIServerReplicas = append(p.KruiseAPIServerReplicas, ha0(9444+i, 6+i))
		}
		for i := 0; i < HAControllerReplica; i++ {
			p.KruiseControllerReplicas = append(p.KruiseControllerReplicas, ha0(10271+i, 8+i))
		}
	}
	return p
}

// Map returns every port by name: the names of hack/LOCAL.md's table, plus
// kruise-node-daemon-<node>, and with HA kruise-apiserver-<i>, kruise-controller-<i>,
// kruise-etcd-<i> and kruise-etcd-<i>-peer.
func (p Ports) Map() map[string]int {
	m := map[string]int{
		"kube-apiserver": p.KubeAPIServer, "etcd": p.Etcd, "etcd-peer": p.EtcdPeer,
		"kube-controller-manager": p.KubeControllerManager, "kube-scheduler": p.KubeScheduler,
		"kwok": p.Kwok, "kruise-apiserver": p.KruiseAPIServer,
		"kruise-etcd": p.KruiseEtcd, "kruise-etcd-peer": p.KruiseEtcdPeer,
		"kruise-controller": p.KruiseController,
	}
	for n, v := range p.NodeDaemons {
		m[n] = v
	}
	for i, v := range p.KruiseAPIServerReplicas {
		m[Replica(KruiseAPIServer, i)] = v
	}
	for i, v := range p.KruiseControllerReplicas {
		m[Replica(KruiseController, i)] = v
	}
	for i, v := range p.EtcdMembers {
		m[Replica(KruiseEtcd, i)] = v.Client
		m[Replica(KruiseEtcd, i)+"-peer"] = v.Peer
	}
	return m
}

// Lines returns "name=port" lines, in hack/LOCAL.md's order, then the others sorted.
func (p Ports) Lines() []string {
	m := p.Map()
	var out []string
	seen := map[string]bool{}
	for _, n := range portOrder {
		out = append(out, fmt.Sprintf("%s=%d", n, m[n]))
		seen[n] = true
	}
	var rest []string
	for n := range m {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	for _, n := range rest {
		out = append(out, fmt.Sprintf("%s=%d", n, m[n]))
	}
	return out
}

// Replica names the i-th replica of an HA component: kruise-apiserver-0, kruise-etcd-2.
func Replica(component string, i int) string { return component + "-" + strconv.Itoa(i) }

// NodeName is the name of the i-th kwok node.
func NodeName(i int) string { return "kwok-node-" + strconv.Itoa(i) }

var replicaName = regexp.MustCompile(`^(kruise-apiserver|kruise-controller|kruise-etcd)-([0-9]+)$`)

// splitReplica returns (kruise-apiserver, 1) for kruise-apiserver-1.
func splitReplica(name string) (string, int, bool) {
	m := replicaName.FindStringSubmatch(name)
	if m == nil {
		return "", 0, false
	}
	i, _ := strconv.Atoi(m[2])
	return m[1], i, true
}

// binaryOf is the program a component runs (its argv[0] base name).
func binaryOf(name string) string {
	if strings.HasPrefix(name, NodeDaemonPrefix) {
		return NodeDaemonBin
	}
	if base, _, ok := splitReplica(name); ok {
		if base == KruiseEtcd {
			return "etcd"
		}
		return base
	}
	return name
}

// componentPorts are the ports a component listens on.
func (p Ports) componentPorts(name string) []int {
	if base, i, ok := splitReplica(name); ok {
		switch {
		case base == KruiseAPIServer && i < len(p.KruiseAPIServerReplicas):
			return []int{p.KruiseAPIServerReplicas[i]}
		case base == KruiseController && i < len(p.KruiseControllerReplicas):
			return []int{p.KruiseControllerReplicas[i]}
		case base == KruiseEtcd && i < len(p.EtcdMembers):
			return []int{p.EtcdMembers[i].Client, p.EtcdMembers[i].Peer}
		}
		return nil
	}
	switch name {
	case Etcd:
		return []int{p.Etcd, p.EtcdPeer}
	case KruiseAPIServer:
		return []int{p.KruiseAPIServer, p.KruiseEtcd, p.KruiseEtcdPeer}
	case LoadBalancer:
		return []int{p.KruiseAPIServer}
	case KubeAPIServer:
		return []int{p.KubeAPIServer}
	case KubeControllerManager:
		return []int{p.KubeControllerManager}
	case KubeScheduler:
		return []int{p.KubeScheduler}
	case Kwok:
		return []int{p.Kwok}
	case KruiseController:
		return []int{p.KruiseController}
	}
	if v, ok := p.NodeDaemons[name]; ok {
		return []int{v}
	}
	return nil
}
