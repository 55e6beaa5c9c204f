package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/machine"
	"github.com/kruise-native/kruise-native/test/bench/internal/report"
	"github.com/kruise-native/kruise-native/test/bench/internal/stack"
)

// bench is one run: the stack, its clients and the results being filled in.
type bench struct {
	f       *flags
	st      *stack.Stack
	workDir string
	outDir  string
	kube    kubernetes.Interface
	kruise  kruiseclient.Interface
	dyn     dynamic.Interface
	audit   string // audit log path
	res     *report.Results
}

// measure starts the stack, runs the phases and always stops the stack. It returns
// whatever it measured, even when a phase failed.
func measure(ctx context.Context, root, outDir string, f *flags) (*report.Results, error) {
	logger := klog.FromContext(ctx)
	res := &report.Results{
		Date:    f.date,
		Started: time.Now().UTC().Format(time.RFC3339),
		Commit:  machine.GitCommit(root),
		Command: commandLine(),
		Machine: machineAtStart(),
		Config: report.Config{
			Nodes: f.nodes, Pods: f.pods, JobNodes: f.jobNodes, DaemonSetNodes: f.dsNodes, Objects: f.objects, Clients: f.clients, Watchers: f.watchers,
			WatchWrites: f.watchWrites, Lists: f.lists, CeilingPods: f.ceilingPods, QPS: f.qps, Burst: f.burst,
			CreateRounds: f.createRounds, RoundObjects: f.roundObjects, APIRounds: f.apiRounds, CeilingRounds: f.ceilingRounds,
			ContainerStart: f.startDelay.String(), Phases: f.phases,
		},
	}
	logger.Info("Machine", "nproc", res.Machine.NProc, "loadAvg", res.Machine.LoadAvgStart, "others", res.Machine.OtherAtStart)

	workDir, err := os.MkdirTemp("", "kruise-bench-work-")
	if err != nil {
		return nil, fmt.Errorf("work directory: %w", err)
	}
	defer os.RemoveAll(workDir)
	auditFlags, auditLog, err := audit.Setup(workDir)
	if err != nil {
		return nil, err
	}
	st, err := stack.Up(ctx, stack.Options{Root: root, Nodes: f.nodes, Env: []string{
		// profiling: pprof of kube-apiserver for the CRD side (local-up turns it off)
		"KUBE_APISERVER_ARGS=" + auditFlags + " --profiling=true",
		// kube-controller-manager runs at its default client QPS/burst, 20/30
		fmt.Sprintf("KRUISE_CONTROLLER_ARGS=--kube-api-qps=%d --kube-api-burst=%d", f.qps, f.burst),
	}})
	if err != nil {
		return nil, err
	}
	defer func() {
		res.Machine.LoadAvgEnd = machine.LoadAvg()
		res.Machine.OtherAtFinish = machine.OtherLoad(st.LocalDir)
		res.Machine.Shared = len(res.Machine.OtherAtStart) > 0 || len(res.Machine.OtherAtFinish) > 0
		res.Finished = time.Now().UTC().Format(time.RFC3339)
		st.Down(ctx)
	}()
	if f.qps != 20 || f.burst != 30 {
		res.Notes = append(res.Notes, "kube-controller-manager ran at its default 20/30 while kruise-controller ran at the flags' QPS/burst: not equal")
	}
	b := &bench{f: f, st: st, workDir: workDir, outDir: outDir, audit: auditLog, res: res}
	if err := b.clients(); err != nil {
		return res, err
	}
	var errs []string
	for _, ph := range []struct {
		name string
		run  func(context.Context) error
	}{{"api", b.api}, {"controller", b.controllers}, {"jobs", b.jobs}, {"daemonsets", b.daemonSets}, {"ceiling", b.ceiling}, {"scale", b.scale}, {"growth", b.growth}} {
		if !phaseOn(f, ph.name) {
			continue
		}
		if err := ph.run(ctx); err != nil {
			logger.Error(err, "Phase failed", "phase", ph.name)
			errs = append(errs, fmt.Sprintf("%s: %v", ph.name, err))
			res.Errors = append(res.Errors, fmt.Sprintf("%s: %v", ph.name, err))
			if ctx.Err() != nil {
				break
			}
		}
	}
	if f.phases != "scale" && f.phases != "growth" {
		res.Notes = append(res.Notes, standingNotes(f)...)
	}
	if len(errs) > 0 {
		return res, fmt.Errorf("phases failed: %s", strings.Join(errs, "; "))
	}
	return res, nil
}

func (b *bench) clients() error {
	var err error
	if b.kube, err = kubernetes.NewForConfig(b.st.Config); err != nil {
		return fmt.Errorf("kube client: %w", err)
	}
	if b.kruise, err = kruiseclient.NewForConfig(b.st.Config); err != nil {
		return fmt.Errorf("kruise client: %w", err)
	}
	if b.dyn, err = dynamic.NewForConfig(b.st.Config); err != nil {
		return fmt.Errorf("dynamic client: %w", err)
	}
	return nil
}

// pids of the processes whose cost is reported (the ones running now).
func (b *bench) pids() map[string]int {
	out := map[string]int{}
	for _, c := range []string{"kube-apiserver", "kruise-apiserver", "kube-controller-manager", "kruise-controller", "kube-scheduler", "kwok", "etcd"} {
		if pid, err := b.st.PID(c); err == nil {
			out[c] = pid
		}
	}
	return out
}

func (b *bench) createNamespace(ctx context.Context, name string) error {
	_, err := b.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating namespace %s: %w", name, err)
	}
	return nil
}

// kruiseAPIServerConfig reaches kruise-apiserver directly (for pprof) as the admin.
func (b *bench) kruiseAPIServerConfig() *rest.Config {
	return &rest.Config{
		Host: fmt.Sprintf("https://127.0.0.1:%d", b.st.Ports["kruise-apiserver"]),
		TLSClientConfig: rest.TLSClientConfig{
			CAFile:   b.st.Path("pki", "kruise-ca.crt"),
			CertFile: b.st.Path("pki", "admin.crt"),
			KeyFile:  b.st.Path("pki", "admin.key"),
		},
	}
}

// commandLine is how this run was started, with the stack settings the environment
// gave it (localstack reads them from there).
func commandLine() string {
	var parts []string
	for _, env := range []string{"KRUISE_APISERVER_ARGS", "KUBE_APISERVER_ARGS", "KRUISE_CONTROLLER_ARGS", "KUBE_CONTROLLER_MANAGER_ARGS", "KWOK_ARGS"} {
		if v, ok := os.LookupEnv(env); ok {
			parts = append(parts, env+"="+v)
		}
	}
	parts = append(parts, "go run ./test/bench/cmd/kruise-bench")
	return strings.Join(append(parts, os.Args[1:]...), " ")
}

// standingNotes explain the figures of the phases f runs.
func standingNotes(f *flags) []string {
	notes := []string{
		"A single run, not a median: wall times on a shared 2-core machine vary by tens of percent between runs; the write counts are stable.",
		"Both stores skip fsync: the stack's etcd runs with --unsafe-no-fsync and kruise-apiserver's embedded etcd with --embedded-etcd-unsafe-no-fsync (make up's defaults), so each write costs the same durability on both sides.",
	}
	if phaseOn(f, "api") {
		notes = append(notes,
			"Both API servers are reached through kube-apiserver (the CRD and the Deployments directly, kruise-apiserver through the APIService proxy), by clients with their own connection each and no client-side rate limit; kruise-controller and kube-controller-manager are stopped during the API phase so that only the benchmark writes (kube-controller-manager would make ReplicaSets and pods of the Deployments; runs before 2026-11-29 kept it running, its garbage collector watching every served resource).",
			fmt.Sprintf("Built-in comparison: the Deployments are apps/v1 with the CloneSet's replicas, selector, pod template and maxUnavailable, sent with kube's defaults in them (as the CloneSets carry kruise-apiserver's). Round 1 runs every target; %d more rounds run the Deployments and kruise-apiserver only, alternating which goes first; each measure is judged on the median of the rounds' CloneSet/Deployment ratios.", max(f.apiRounds-1, 0)),
			"Both servers are sent the same CloneSet with kruise-apiserver's defaults already in it (the pod template's among them, as OpenKruise's defaulting webhook sets them on its CRD's objects), so both store, list and send in watch events the same fields. Runs before 2026-11-26's API addendum sent it undefaulted: the CRD then held objects a third smaller than kruise-apiserver's defaulted ones.",
			fmt.Sprintf("A list's p99 is over %d sequential lists of every CloneSet, so it is their slowest; p50 says more about the typical list.", f.lists))
		if f.createRounds > 0 {
			notes = append(notes, fmt.Sprintf("Create throughput is judged on %d alternating rounds of %d creates per server (A B B A ..., each round's objects deleted before the next) and the median of the per-round ratios: one long batch per server measured each under different load, and on this machine its verdict flipped between runs of the same commit. The %d-create batches stay in the table for latency and size.", f.createRounds, f.roundObjects, f.objects))
		}
	}
	if phaseOn(f, "controller") || phaseOn(f, "daemonsets") {
		notes = append(notes, "Writes per pod come from kube-apiserver's audit log (Metadata level, writes only) in the workload's namespace, from the change until done + 3 s. Controller writes: kruise-controller for Kruise kinds; for kube's, the controllers of kube-controller-manager that own them (each of its controllers has its own client with the default QPS/burst, --use-service-account-credentials); events are counted apart. All writes: every client (scheduler bindings, kwok and node-daemon pod status, events, garbage collector).")
	}
	if phaseOn(f, "controller") {
		notes = append(notes,
			"Controllers: Deployment's writes are its deployment and replicaset controllers'.",
			fmt.Sprintf("The modeled container start: kwok's pod-ready Stage and our in-place image Stage wait %s before reporting the container running.", f.startDelay),
			"Deployment keeps its default maxSurge (25%), CloneSet its default (0): with the same maxUnavailable the Deployment may have more pods in flight.")
	}
	if phaseOn(f, "jobs") {
		notes = append(notes, fmt.Sprintf("Jobs: a BroadcastJob over %d kwok nodes (nodes beyond the stack's %d are added for the phase, without node daemons) against kube's Job with parallelism = completions = %d, each pod running kwok's 1 s modelled run time (hack/local/kwok/pod-complete.yaml); time from the create to the Complete condition. Controller writes: kruise-controller, and kube-controller-manager's job-controller (its pod creates, the job-tracking finalizer it takes off each finished pod, and its status updates).", max(f.jobNodes, f.nodes), f.nodes, max(f.jobNodes, f.nodes)))
	}
	if phaseOn(f, "daemonsets") {
		n := max(f.dsNodes, f.nodes)
		notes = append(notes, fmt.Sprintf("DaemonSets: kube's DaemonSet (RollingUpdate) against the Advanced DaemonSet with rollingUpdateType InPlaceIfPossible and Standard (recreate), each over %d kwok nodes (nodes beyond the stack's %d are added for the phase, without node daemons), in kwok's immediate mode; all three with maxUnavailable %s and maxSurge 0, so each may have the same number of nodes without an available pod at a time. create: from the create until every node runs one ready pod and the status says so; rollout: from the image patch until every node runs one ready pod of the new image and no old pod is left. Controller writes: kruise-controller, and kube-controller-manager's daemon-set-controller.", n, f.nodes, ctrlbench.DaemonSetMaxUnavailable))
	}
	if phaseOn(f, "ceiling") {
		notes = append(notes, "The ceiling's pods name their node (round robin over the kwok nodes): the scheduler is out of the loop, kwok and the node daemons still run every pod.")
	}
	return notes
}
