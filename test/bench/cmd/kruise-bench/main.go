// Command kruise-bench runs the benchmark of issue 8 (`make bench`) on a private local
// stack: the aggregated API against CRDs, CloneSet against Deployment at equal client
// QPS/burst, BroadcastJob against Job, Advanced DaemonSet against DaemonSet, and the
// pod-creation ceiling; it writes test/bench/results/<date>.{json,md},
// PNG charts, and the README's benchmark section.
//
//	go run ./test/bench/cmd/kruise-bench                      # everything, full scale
//	go run ./test/bench/cmd/kruise-bench -small               # quick check: 3 nodes, 50 pods, 200 CloneSets
//	go run ./test/bench/cmd/kruise-bench -small -phases=jobs  # BroadcastJob against Job only
//	go run ./test/bench/cmd/kruise-bench -phases=daemonsets -readme=false -date=2026-01-01-daemonset
//	go run ./test/bench/cmd/kruise-bench -phases=controller -pods=200
//	go run ./test/bench/cmd/kruise-bench -render=test/bench/results/2025-01-01.json
//	go run ./test/bench/cmd/kruise-bench -phases=scale -readme=false -date=2026-11-26-scale -timeout=150m  # opt-in
//	go run ./test/bench/cmd/kruise-bench -phases=growth -readme=false -date=2026-11-29-growth -timeout=300m # opt-in
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/internal/reporoot"
)

type flags struct {
	phases                          string
	nodes, pods, jobNodes, dsNodes  int
	objects, clients, watchers      int
	watchWrites, lists, ceilingPods int
	createRounds, roundObjects      int
	apiRounds                       int
	ceilingRounds                   int
	ceilingQuietCores               float64
	qps, burst                      int
	startDelay, phaseTimeout, total time.Duration
	out, date, render               string
	readme, small, profile          bool
	scale                           scaleFlags
	// growthSizes: the growth phase's workloads per side, one scale phase each
	growthSizes string
}

// scaleFlags size the opt-in scale phase (-phases=scale).
type scaleFlags struct {
	workloads, pods, nodes          int
	qps, burst                      int
	imagePercent                    float64
	idle, restartWindow, drainQuiet time.Duration
	sides                           string
	timeout                         time.Duration
	rssSettle, rssWindow            time.Duration
	// controllerArgs are extra kruise-controller flags for the phase (e.g.
	// --enable-profiling, to take its profiles by hand during a side)
	controllerArgs string
}

func parseFlags() *flags {
	f := &flags{}
	flag.StringVar(&f.phases, "phases", "api,controller,jobs,daemonsets,ceiling", "phases to run, comma separated")
	flag.IntVar(&f.nodes, "nodes", 10, "kwok nodes")
	flag.IntVar(&f.pods, "pods", 1000, "pods per workload in the controller phase")
	flag.IntVar(&f.jobNodes, "job-nodes", 100, "kwok nodes of the jobs phase: a BroadcastJob over them against a Job with as many pods")
	flag.IntVar(&f.dsNodes, "ds-nodes", 100, "kwok nodes of the daemonsets phase: one pod of each DaemonSet on each")
	flag.IntVar(&f.objects, "objects", 5000, "CloneSets created in the API phase")
	flag.IntVar(&f.clients, "clients", 32, "concurrent API clients")
	flag.IntVar(&f.watchers, "watchers", 50, "concurrent watchers")
	flag.IntVar(&f.watchWrites, "watch-writes", 1000, "writes made while the watchers watch")
	flag.IntVar(&f.lists, "lists", 20, "lists of all CloneSets per encoding")
	flag.IntVar(&f.createRounds, "create-rounds", 6, "alternating rounds of creates on the CRD and kruise-apiserver, and on the Deployments and kruise-apiserver (0: skip)")
	flag.IntVar(&f.apiRounds, "api-rounds", 3, "rounds of the API benchmark on kruise-apiserver and the built-in Deployments, alternating which goes first (the first round also runs the CRD); the median of the rounds' ratios is judged")
	flag.IntVar(&f.roundObjects, "round-objects", 1000, "CloneSets created on each server per round")
	flag.IntVar(&f.ceilingPods, "ceiling-pods", 5000, "pods the bare client creates")
	flag.Float64Var(&f.ceilingQuietCores, "ceiling-quiet-cores", 0.3, "ceiling: each batch starts once the stack's processes together use less CPU than this, in cores, over 2 s (at most 2 minutes' wait)")
	// Six rounds: on this 2-core machine one round's ratio ranges 0.82-1.19 with the
	// webhook's cost unchanged (test/bench/results/2026-11-27-ceiling-6rounds.md), so two
	// rounds' median says little.
	flag.IntVar(&f.ceilingRounds, "ceiling-rounds", 6, "rounds of one ceiling batch with the Pod webhook registered and one without it, alternating which goes first (odd rounds without it first; 2 or more measures both orders; 0: only with it)")
	flag.IntVar(&f.qps, "qps", 20, "client QPS of every controller (kube-controller-manager's default)")
	flag.IntVar(&f.burst, "burst", 30, "client burst of every controller (kube-controller-manager's default)")
	flag.DurationVar(&f.startDelay, "start-delay", 2*time.Second, "modeled container start for the second controller run (0: skip it)")
	flag.DurationVar(&f.phaseTimeout, "phase-timeout", 12*time.Minute, "bound of each controller phase")
	flag.DurationVar(&f.total, "timeout", 100*time.Minute, "bound of the whole run")
	flag.StringVar(&f.out, "out", "test/bench/results", "results directory (a relative one is under the repository root)")
	flag.StringVar(&f.date, "date", time.Now().Format("2006-01-02"), "results file name")
	flag.StringVar(&f.render, "render", "", "only render this results JSON again (Markdown, charts, README)")
	flag.BoolVar(&f.readme, "readme", true, "write the results into README.md's benchmark section")
	flag.BoolVar(&f.small, "small", false, "quick validation scale: 3 nodes, 50 pods, 10 job and DaemonSet nodes, 200 CloneSets, 2 rounds of 100, 500 ceiling pods; README untouched")
	flag.BoolVar(&f.profile, "profile", true, "capture pprof profiles of the API servers during the API phase")
	flag.StringVar(&f.growthSizes, "growth-sizes", "500,1000,2000", "growth phase (opt-in, -phases=growth): the scale phase at each of these workload counts (per side, -scale-pods pods each), for the slopes of cost against pods")
	s := &f.scale
	flag.StringVar(&s.sides, "scale-sides", "Deployment,CloneSet", "scale phase: the sides to run, in order (Deployment, CloneSet)")
	flag.IntVar(&s.workloads, "scale-workloads", 2000, "scale phase: workloads of each side (as many Deployments as CloneSets)")
	flag.IntVar(&s.pods, "scale-pods", 10, "scale phase: pods per workload")
	flag.IntVar(&s.nodes, "scale-nodes", 100, "scale phase: kwok nodes (beyond -nodes, added for the phase)")
	flag.IntVar(&s.qps, "scale-qps", 100, "scale phase: client QPS of both kruise-controller and kube-controller-manager")
	flag.IntVar(&s.burst, "scale-burst", 200, "scale phase: client burst of both controllers")
	flag.Float64Var(&s.imagePercent, "scale-image-percent", 1, "scale phase: percent of the workloads given a new image at once")
	flag.DurationVar(&s.idle, "scale-idle", 5*time.Minute, "scale phase: idle window after all are ready (and -scale-drain-quiet without writes)")
	flag.DurationVar(&s.drainQuiet, "scale-drain-quiet", 15*time.Second, "scale phase: the idle window starts once the namespace had no write for this long (the ready step's trailing events written)")
	flag.DurationVar(&s.restartWindow, "scale-restart-window", time.Minute, "scale phase: how long after a controller restart its writes are counted")
	flag.DurationVar(&s.timeout, "scale-timeout", 25*time.Minute, "scale phase: bound of each wait")
	flag.DurationVar(&s.rssSettle, "scale-rss-settle", 20*time.Second, "scale phase: wait after the forced GC before reading the API servers' RSS")
	flag.DurationVar(&s.rssWindow, "scale-rss-window", 10*time.Second, "scale phase: window of 1 s RSS samples (median)")
	flag.StringVar(&s.controllerArgs, "scale-controller-args", "", "scale phase: extra kruise-controller flags (e.g. --enable-profiling)")
	klog.InitFlags(nil)
	flag.Parse()
	if f.small {
		f.nodes, f.pods, f.objects, f.watchers, f.watchWrites, f.lists, f.ceilingPods = 3, 50, 200, 10, 200, 5, 500
		f.jobNodes, f.dsNodes = 10, 10
		f.createRounds, f.roundObjects, f.ceilingRounds, f.apiRounds = 2, 100, 2, 2
		f.readme = false
		f.date += "-small"
	}
	return f
}

func main() {
	f := parseFlags()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, f.total)
	defer cancel()
	logger := klog.Background().WithName("kruise-bench")
	ctx = klog.NewContext(ctx, logger)
	if err := run(ctx, f); err != nil {
		logger.Error(err, "Benchmark failed")
		klog.Flush()
		os.Exit(1)
	}
	klog.Flush()
}

func run(ctx context.Context, f *flags) error {
	root, err := reporoot.Find()
	if err != nil {
		return err
	}
	outDir := f.out
	if !filepath.IsAbs(outDir) {
		outDir = filepath.Join(root, outDir)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return fmt.Errorf("creating %s: %w", outDir, err)
	}
	if f.render != "" {
		return render(ctx, root, outDir, f.render, f.readme)
	}
	res, err := measure(ctx, root, outDir, f)
	if res == nil {
		return err
	}
	if werr := write(ctx, root, outDir, res, f.readme); werr != nil {
		return werr
	}
	return err
}

func phaseOn(f *flags, name string) bool {
	for _, p := range strings.Split(f.phases, ",") {
		if strings.TrimSpace(p) == name {
			return true
		}
	}
	return false
}
