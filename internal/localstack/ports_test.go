package localstack

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

func TestLayoutPorts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		base  int
		nodes int
		ha    bool
		want  map[string]int
	}{
		{name: "standard ports", base: 0, nodes: 2, want: map[string]int{
			"kube-apiserver": 6443, "etcd": 2379, "kruise-apiserver": 9443, "kruise-etcd": 12379,
			"kruise-controller": 10270, "kruise-node-daemon-kwok-node-1": 10281,
		}},
		{name: "port base", base: 20000, nodes: 12, want: map[string]int{
			"kube-apiserver": 20000, "kruise-apiserver": 20006, "kruise-controller": 20009,
			"kruise-node-daemon-kwok-node-0": 20010, "kruise-node-daemon-kwok-node-9": 20019,
		}},
		{name: "HA at a port base", base: 20000, nodes: 1, ha: true, want: map[string]int{
			"kruise-apiserver": 20006, "kruise-etcd-0": 20020, "kruise-etcd-0-peer": 20021,
			"kruise-etcd-2": 20024, "kruise-etcd-2-peer": 20025, "kruise-apiserver-0": 20026,
			"kruise-apiserver-1": 20027, "kruise-controller-0": 20028, "kruise-controller-1": 20029,
		}},
		{name: "HA standard", base: 0, ha: true, want: map[string]int{
			"kruise-apiserver": 9443, "kruise-apiserver-0": 9444, "kruise-etcd-1": 12383, "kruise-controller-1": 10272,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := layoutPorts(tc.base, tc.nodes, tc.ha).Map()
			for k, v := range tc.want {
				if m[k] != v {
					t.Errorf("%s = %d, want %d", k, m[k], v)
				}
			}
			if _, ok := m["kruise-node-daemon-kwok-node-10"]; ok {
				t.Error("a fixed port for the 11th node daemon")
			}
			// no two components share a port, and a stack stays inside its span
			seen := map[int]string{}
			span := PortSpan
			if tc.ha {
				span = PortSpanHA
			}
			for k, v := range m {
				if other, ok := seen[v]; ok {
					t.Errorf("%s and %s both on %d", k, other, v)
				}
				seen[v] = k
				if tc.base != 0 && (v < tc.base || v >= tc.base+span) {
					t.Errorf("%s on %d, outside %d..%d", k, v, tc.base, tc.base+span-1)
				}
			}
		})
	}
}

func TestBinaryOf(t *testing.T) {
	for name, want := range map[string]string{
		"kruise-apiserver": "kruise-apiserver", "kruise-apiserver-1": "kruise-apiserver",
		"kruise-controller-0": "kruise-controller", "kruise-etcd-2": "etcd", "etcd": "etcd",
		"kruise-node-daemon-kwok-node-3": NodeDaemonBin, "haproxy": "haproxy",
	} {
		if got := binaryOf(name); got != want {
			t.Errorf("binaryOf(%s) = %s, want %s", name, got, want)
		}
	}
}

func TestStopOrder(t *testing.T) {
	names := []string{"etcd", "kruise-etcd-1", "kube-apiserver", "haproxy", "kruise-apiserver-0", "kwok",
		"kruise-controller-1", "kruise-node-daemon-kwok-node-0", "kube-scheduler", "kube-controller-manager"}
	sort.SliceStable(names, func(i, j int) bool { return stopRank(names[i]) < stopRank(names[j]) })
	want := []string{"kruise-node-daemon-kwok-node-0", "kruise-controller-1", "haproxy", "kruise-apiserver-0", "kwok",
		"kube-scheduler", "kube-controller-manager", "kube-apiserver", "kruise-etcd-1", "etcd"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("stop order %v, want %v", names, want)
	}
}

func TestOptionsWithEnv(t *testing.T) {
	o := Defaults("/repo")
	got, err := o.WithEnv("KRUISE_CONTROLLER_ARGS=--a --b", "NODES=5", "HA=1", "WAIT_TIMEOUT=7")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.KruiseControllerArgs, []string{"--a", "--b"}) || got.Nodes != 5 || !got.HA || got.WaitTimeout.Seconds() != 7 {
		t.Errorf("got %+v", got)
	}
	if o.Nodes != 3 || o.HA {
		t.Error("WithEnv changed the original")
	}
	for _, bad := range []string{"NODES=-1", "HA=yes", "KWOK_JOB_RUN_TIME_MS=abc", "PORT_BASE=x", "novalue"} {
		if _, err := o.WithEnv(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// Later commands on a LOCAL_DIR find the stack `up` made there: its PORT_BASE, NODES and
// HA come from local.env unless the environment says otherwise.
func TestFromEnvReadsTheStacksLocalEnv(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "local.env"), []byte("# comment\nPORT_BASE=21000\nNODES=2\nHA=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LOCAL_DIR", dir)
	o, err := FromEnv("/repo")
	if err != nil {
		t.Fatal(err)
	}
	if o.PortBase != 21000 || o.Nodes != 2 || !o.HA {
		t.Errorf("from local.env: PortBase %d Nodes %d HA %v", o.PortBase, o.Nodes, o.HA)
	}
	t.Setenv("NODES", "4")
	t.Setenv("HA", "0")
	if o, err = FromEnv("/repo"); err != nil || o.Nodes != 4 || o.HA || o.PortBase != 21000 {
		t.Errorf("environment over local.env: %+v %v", o, err)
	}
}
