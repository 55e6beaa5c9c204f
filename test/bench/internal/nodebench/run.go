package nodebench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/bench/internal/machine"
	"github.com/kruise-native/kruise-native/test/bench/internal/report"
	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// Config is one run's.
type Config struct {
	Root    string   // the repository
	Version string   // the images' tag, v<VERSION>
	Images  []string // make images's OCI tarballs (pause, kruise-*)
	Pods    int
	// MaxUnavailable of every rollout ("25%" or a number).
	MaxUnavailable string
	// Timeout bounds each wait of a rollout.
	Timeout time.Duration
	// Workloads to run, of CloneSetInPlace, CloneSetRecreate, Deployment; PreDownload
	// adds the in-place rollout with pre-download on.
	Workloads   []string
	PreDownload bool
	// Rounds: each runs every rollout once, the order rotated by one per round.
	Rounds int
	Logf   func(format string, args ...any)
}

// Run brings the node up, installs Kruise Native, runs the rollouts one at a time and
// takes the node down again (the harness restores the host and checks it against its
// snapshot); Results.HostRestored says how that went. An error means no rollout ran.
func Run(ctx context.Context, cfg Config) (rs *Results, err error) {
	rs = &Results{Start: time.Now(), Pods: cfg.Pods, MaxUnavailable: cfg.MaxUnavailable,
		Machine: Machine{Cores: runtime.NumCPU(), LoadAvgStart: machine.LoadAvg(), Others: machine.OtherLoad(cfg.Root)}}
	dir := filepath.Join(cfg.Root, "_output", "node-bench")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// A fresh audit log per run: the reader starts at its end anyway, the file need
	// not grow across runs.
	_ = os.Remove(filepath.Join(dir, "audit.log"))
	flags, logPath, err := audit.Setup(dir)
	if err != nil {
		return nil, err
	}
	upCtx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	c, err := harness.Up(upCtx, harness.Options{Root: cfg.Root, Version: cfg.Version, Images: cfg.Images, Logf: cfg.Logf,
		KubeAPIServerArgs: strings.Fields(flags)})
	if err != nil {
		return nil, err
	}
	defer func() {
		dctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		if derr := c.Down(dctx); derr != nil {
			rs.HostRestored = "NOT restored: " + derr.Error()
		} else {
			rs.HostRestored = "restored, matching the harness's snapshot taken before the cluster (its own check)"
		}
		rs.Machine.LoadAvgEnd = machine.LoadAvg()
	}()
	rs.Node = nodeInfo(ctx, c)
	cl, err := newClients(c)
	if err != nil {
		return rs, err
	}
	// The gate is on for the whole run when pre-download is measured; the other
	// CloneSets are marked apps.kruise.io/image-predownload-ignored, so that the
	// rollouts of a round need no restart of kruise-controller between them.
	gate := fmt.Sprintf("helm install (PreDownloadImageForInPlaceUpdate %s)", map[bool]string{true: "on", false: "off"}[cfg.PreDownload])
	if err := c.Step(gate, func() error { return install(ctx, c, cl, cfg.PreDownload) }); err != nil {
		return rs, err
	}
	mu, err := ResolveMaxUnavailable(cfg.MaxUnavailable, cfg.Pods)
	if err != nil {
		return rs, err
	}
	rs.MaxUnavailable = fmt.Sprintf("%s = %d pods", cfg.MaxUnavailable, mu)
	e := &Env{Cluster: c, AuditLog: logPath, Pods: cfg.Pods, MaxUnavailable: intstr.FromInt32(int32(mu)), Timeout: cfg.Timeout, Logf: cfg.Logf,
		clients: cl}
	type run struct {
		workload, name string
		pre            bool
	}
	var runs []run
	for _, wl := range cfg.Workloads {
		runs = append(runs, run{wl, ShortNames[wl], false})
		if wl == CloneSetInPlace && cfg.PreDownload {
			runs = append(runs, run{wl, "inplace-predownload", true})
		}
	}
	rs.Rounds = max(cfg.Rounds, 1)
	for round := 1; round <= rs.Rounds; round++ {
		for _, x := range RoundOrder(runs, round) {
			label := x.workload
			if x.pre {
				label += " + pre-download"
			}
			var r Rollout
			_ = c.Step(fmt.Sprintf("round %d: %s", round, label), func() error {
				r = e.Rollout(ctx, x.workload, x.pre, fmt.Sprintf("%s-r%d", x.name, round), round)
				return nil
			})
			rs.Rollouts = append(rs.Rollouts, r)
		}
	}
	return rs, nil
}

// RoundOrder is the order of a round's rollouts: rotated by one per round, so that no
// workload always runs first after the install, or always last.
func RoundOrder[T any](runs []T, round int) []T {
	n := len(runs)
	if n == 0 {
		return nil
	}
	out := make([]T, 0, n)
	for i := range runs {
		out = append(out, runs[(i+round-1)%n])
	}
	return out
}

// ResolveMaxUnavailable turns maxUnavailable ("25%" or a number) into a number of
// pods, rounded down as a Deployment rounds it, at least 1. Every workload gets that
// number: a CloneSet with maxSurge 0 rounds a percentage up (OpenKruise's rule), which
// would give it more pods in flight than the Deployment (13 against 12 of 50 at 25%).
func ResolveMaxUnavailable(maxUnavailable string, pods int) (int, error) {
	v := intstr.Parse(maxUnavailable)
	n, err := intstr.GetScaledValueFromIntOrPercent(&v, pods, false)
	if err != nil {
		return 0, fmt.Errorf("maxUnavailable %q: %w", maxUnavailable, err)
	}
	return max(n, 1), nil
}

// nodeInfo reads the node's versions.
func nodeInfo(ctx context.Context, c *harness.Cluster) Node {
	var n Node
	if node, err := c.Client.CoreV1().Nodes().Get(ctx, harness.NodeName, metav1.GetOptions{}); err == nil {
		n.Kubelet = node.Status.NodeInfo.KubeletVersion
		n.Runtime = node.Status.NodeInfo.ContainerRuntimeVersion
		n.Kernel = node.Status.NodeInfo.KernelVersion
	}
	if out, err := exec.CommandContext(ctx, "containerd", "--version").Output(); err == nil {
		f := strings.Fields(string(out))
		if len(f) >= 3 {
			n.Containerd = f[2]
		}
	}
	if out, err := exec.CommandContext(ctx, "runc", "--version").Output(); err == nil {
		n.Runtime += ", " + strings.SplitN(strings.TrimSpace(string(out)), "\n", 2)[0]
	}
	return n
}

// Notes are the report's fixed notes on method.
func Notes() []string {
	return []string{
		"One real node: `make test-cluster`'s harness (test/cluster/harness): containerd and runc from Debian, kubelet and kube-proxy built from Kubernetes' source, the CNI bridge; the control plane on the same machine. The image is the harness's test image (one ~8 MB static binary serving HTTP, exiting at once on SIGTERM) at two tags of a repository of its own per rollout (bench/<name>:v1, :v2) in the loopback registry, so each rollout pulls its new image once, cold.",
		"Per pod: from just before the image patch until the bench's pod watch first saw the pod's container running the new image (imageID carrying the v2 digest, state running, started). For a recreating rollout these are the new pods. p50/p99 are nearest-rank over the workload's pods; with 50 pods p99 is the slowest pod (rank ceil(0.99 × 50) = 50).",
		"Wall: from the patch until every pod of the workload ran the new image and was Ready and no old pod was left (terminating ones included), as the same watch saw it.",
		"UIDs kept: pods at the end whose UID a pod had before the rollout; IPs kept: pods at the end whose address one of the workload's pods had before it.",
		"Writes: kube-apiserver's audit log (Metadata level, writes only, Events left out) in the workload's namespace, from the patch until done + 3 s; controller writes are kruise-controller's for the CloneSets (pods, the CloneSet's status, ImagePullJobs), the deployment and replicaset controllers' of kube-controller-manager for the Deployment. All writes add kubelet's pod status writes and kube-scheduler's bindings.",
		"CPU seconds: /proc/<pid>/stat (utime + stime) of kubelet, kube-controller-manager, kruise-controller and kruise-node-daemon; for containerd and its shims also the children they waited for (cutime + cstime: runc). Shims, one per pod sandbox, are sampled every 250 ms: one that exits during the rollout loses at most its last 250 ms.",
		"Every workload has maxSurge 0 and the same maxUnavailable as a number of pods (the percentage rounded down, as a Deployment rounds it; a CloneSet with maxSurge 0 would round it up), so each has the same number of pods in flight; the Deployment's default maxSurge (25%) would let it start new pods before the old ones are gone.",
		"Pre-download: the chart is installed with featureGates.PreDownloadImageForInPlaceUpdate=true; every CloneSet but the pre-download one carries apps.kruise.io/image-predownload-ignored (pre-download nothing), so a round needs no kruise-controller restart. kruise-controller creates the ImagePullJob when the rollout starts; on one node the image is pulled once either way (by kubelet for the first pod, or by the node daemon), so pre-download can at most save the first batch's pull, here from a registry on the same machine.",
		"Rounds: each round runs every rollout once, in an order rotated by one per round; the table shows each figure's median over the rounds, the targets are judged on the median of the per-round ratios (the rollouts of a round ran minutes apart, under the same load), and the chart pools every round's pods.",
		"A single run on a shared 2-core machine: other engineers' stacks and builds ran beside it (the load averages above); times vary by tens of percent between runs; the write counts and kept UIDs/IPs do not.",
	}
}

// Write saves the results as JSON, the chart as PNG and the report as Markdown, as
// <dir>/<date>.{json,md} and <date>.png; it returns the files.
func Write(rs *Results, dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	base := filepath.Join(dir, rs.Date)
	chart := base + ".png"
	var series []report.Series
	for i := range rs.Summary {
		r := &rs.Summary[i]
		series = append(series, report.Series{
			Label:  fmt.Sprintf("%s (median p50 %.1f s, p99 %.1f s)", r.Label(), r.P50Seconds, r.P99Seconds),
			Times:  r.PerPodSeconds,
			Dashed: r.PreDownload,
		})
	}
	title := fmt.Sprintf("Image rollout of %d pods on a real node, %d rounds pooled: containers running the new image", rs.Pods, rs.Rounds)
	if err := report.CumulativeChart(chart, title, "seconds since the image change", "pods (all rounds)", series); err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(rs, "", "  ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(base+".json", append(b, '\n'), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(base+".md", []byte(Markdown(rs, filepath.Base(chart))), 0o644); err != nil {
		return nil, err
	}
	return []string{base + ".json", base + ".md", chart}, nil
}
