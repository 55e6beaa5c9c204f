// Package localstack runs the local stack from real binaries: etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler, kwok (the kubelet of every fake node) and, when
// they are built, kruise-apiserver, kruise-controller and one node daemon per node. `make
// up` (hack/local), the integration tests (test/integration/framework) and the benchmark
// (test/bench) all drive it through this package: it starts, stops and restarts each
// component, and says which ports, pids, kubeconfigs and logs they have. With HA it runs the
// production topology instead: a 3-member etcd cluster, 2 kruise-apiserver replicas on it
// behind HAProxy, and 2 kruise-controller replicas with leader election.
//
// It is a development tool: nothing in the product's binaries imports it.
package localstack

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Options say where the stack lives and what it runs. FromEnv reads them from the
// environment variables hack/LOCAL.md documents.
type Options struct {
	// Root is the repository root (hack/, artifacts/ are read from it).
	Root string
	// LocalDir holds the stack's state: pki/, kubeconfig(s), logs/, pids/, data.
	LocalDir string
	// BinDir holds the binaries (`make tools`, `make build`).
	BinDir string
	// PortBase 0 means the standard ports; otherwise every port is PortBase + offset.
	PortBase int
	// Nodes is the number of kwok nodes, kwok-node-0..Nodes-1.
	Nodes int
	// WaitTimeout bounds the wait for each component or condition.
	WaitTimeout time.Duration
	// StopTimeout is how long Stop waits after SIGTERM before SIGKILL.
	StopTimeout time.Duration
	// Extra flags, appended to each program's own.
	KruiseAPIServerArgs, KruiseControllerArgs, KruiseNodeDaemonArgs []string
	KubeAPIServerArgs, KwokArgs                                     []string
	// KubeControllerManagerArgs: e.g. the benchmark's --kube-api-qps, so that both
	// controllers under comparison run at one client QPS/burst.
	KubeControllerManagerArgs []string
	// PodWebhookFailurePolicy is the Pod webhook registration's failurePolicy.
	PodWebhookFailurePolicy string
	// KwokStages is the directory of kwok Stage files.
	KwokStages string
	// KwokJobRunTimeMS, when set, replaces the job Stages' default run time.
	KwokJobRunTimeMS string
	// HA runs the high-availability topology (see the package comment).
	HA bool
	// Out receives progress lines ("local-up: ..."), Err the tails of failed logs.
	Out, Err io.Writer
}

// Environment variables FromEnv and WithEnv read.
const (
	EnvLocalDir                  = "LOCAL_DIR"
	EnvBinDir                    = "BIN_DIR"
	EnvPortBase                  = "PORT_BASE"
	EnvNodes                     = "NODES"
	EnvWaitTimeout               = "WAIT_TIMEOUT"
	EnvStopTimeout               = "STOP_TIMEOUT"
	EnvKruiseAPIServerArgs       = "KRUISE_APISERVER_ARGS"
	EnvKruiseControllerArgs      = "KRUISE_CONTROLLER_ARGS"
	EnvKruiseNodeDaemonArgs      = "KRUISE_NODE_DAEMON_ARGS"
	EnvKubeAPIServerArgs         = "KUBE_APISERVER_ARGS"
	EnvKubeControllerManagerArgs = "KUBE_CONTROLLER_MANAGER_ARGS"
	EnvKwokArgs                  = "KWOK_ARGS"
	EnvPodWebhookPolicy          = "POD_WEBHOOK_FAILURE_POLICY"
	EnvKwokStages                = "KWOK_STAGES"
	EnvKwokJobRunTimeMS          = "KWOK_JOB_RUN_TIME_MS"
	EnvHA                        = "HA"
)

// Defaults are the options with nothing set: _output/local, _output/bin, standard ports.
func Defaults(root string) Options {
	return Options{
		Root:                    root,
		LocalDir:                filepath.Join(root, "_output", "local"),
		BinDir:                  filepath.Join(root, "_output", "bin"),
		Nodes:                   3,
		WaitTimeout:             90 * time.Second,
		StopTimeout:             30 * time.Second,
		PodWebhookFailurePolicy: "Ignore",
		KwokStages:              filepath.Join(root, "hack", "local", "kwok"),
		Out:                     os.Stdout,
		Err:                     os.Stderr,
	}
}

// FromEnv returns Defaults(root) overridden by the process environment. PORT_BASE, NODES
// and HA that the environment does not set come from the stack already in LOCAL_DIR (its
// local.env), so `start`, `status` and `stop` find the stack `up` made.
func FromEnv(root string) (Options, error) {
	o := Defaults(root)
	if err := o.apply(os.LookupEnv); err != nil {
		return o, err
	}
	saved := readEnvFile(filepath.Join(o.LocalDir, "local.env"))
	return o, o.apply(func(k string) (string, bool) {
		switch k {
		case EnvPortBase, EnvNodes, EnvHA:
			if _, set := os.LookupEnv(k); !set {
				v, ok := saved[k]
				return v, ok
			}
		}
		return "", false
	})
}

// readEnvFile reads KEY=VALUE lines; a missing file is empty.
func readEnvFile(path string) map[string]string {
	out := map[string]string{}
	data, err := os.ReadFile(path)
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(k, "#") {
			out[k] = v
		}
	}
	return out
}

// WithEnv returns a copy of o with the given KEY=VALUE settings applied, as if they had
// been in the environment (e.g. "KRUISE_CONTROLLER_ARGS=--foo" for one restart).
func (o Options) WithEnv(kv ...string) (Options, error) {
	m := map[string]string{}
	for _, s := range kv {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return o, fmt.Errorf("%q is not KEY=VALUE", s)
		}
		m[k] = v
	}
	err := o.apply(func(k string) (string, bool) { v, ok := m[k]; return v, ok })
	return o, err
}

func (o *Options) apply(lookup func(string) (string, bool)) error {
	str := func(key string, dst *string) {
		if v, ok := lookup(key); ok && v != "" {
			*dst = v
		}
	}
	fields := func(key string, dst *[]string) {
		if v, ok := lookup(key); ok {
			*dst = strings.Fields(v)
		}
	}
	num := func(key string, min int, dst *int) error {
		v, ok := lookup(key)
		if !ok || v == "" {
			return nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < min {
			return fmt.Errorf("%s=%q is not a number >= %d", key, v, min)
		}
		*dst = n
		return nil
	}
	seconds := func(key string, dst *time.Duration) error {
		n := -1
		if err := num(key, 1, &n); err != nil || n < 0 {
			return err
		}
		*dst = time.Duration(n) * time.Second
		return nil
	}
	str(EnvLocalDir, &o.LocalDir)
	str(EnvBinDir, &o.BinDir)
	str(EnvKwokStages, &o.KwokStages)
	str(EnvPodWebhookPolicy, &o.PodWebhookFailurePolicy)
	if v, ok := lookup(EnvKwokJobRunTimeMS); ok {
		o.KwokJobRunTimeMS = v
	}
	fields(EnvKruiseAPIServerArgs, &o.KruiseAPIServerArgs)
	fields(EnvKruiseControllerArgs, &o.KruiseControllerArgs)
	fields(EnvKruiseNodeDaemonArgs, &o.KruiseNodeDaemonArgs)
	fields(EnvKubeAPIServerArgs, &o.KubeAPIServerArgs)
	fields(EnvKubeControllerManagerArgs, &o.KubeControllerManagerArgs)
	fields(EnvKwokArgs, &o.KwokArgs)
	if v, ok := lookup(EnvHA); ok {
		switch v {
		case "", "0", "false":
			o.HA = false
		case "1", "true":
			o.HA = true
		default:
			return fmt.Errorf("%s=%q: use 1 or 0", EnvHA, v)
		}
	}
	for _, err := range []error{
		num(EnvPortBase, 0, &o.PortBase),
		num(EnvNodes, 0, &o.Nodes),
		seconds(EnvWaitTimeout, &o.WaitTimeout),
		seconds(EnvStopTimeout, &o.StopTimeout),
	} {
		if err != nil {
			return err
		}
	}
	if o.KwokJobRunTimeMS != "" {
		if _, err := strconv.ParseUint(o.KwokJobRunTimeMS, 10, 32); err != nil {
			return fmt.Errorf("KWOK_JOB_RUN_TIME_MS=%s is not a number of milliseconds", o.KwokJobRunTimeMS)
		}
	}
	var err error
	if o.LocalDir, err = filepath.Abs(o.LocalDir); err != nil {
		return err
	}
	o.BinDir, err = filepath.Abs(o.BinDir)
	return err
}
