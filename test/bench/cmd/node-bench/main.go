// Command node-bench is the rollout benchmark on a real node (issue 38, part 1; `make
// bench-node`, opt-in, root): on the single-node cluster of `make test-cluster`'s
// harness it rolls a CloneSet InPlaceIfPossible, a CloneSet ReCreate and a Deployment
// of the same pods to a new image tag at the same maxUnavailable, and the in-place one
// again with PreDownloadImageForInPlaceUpdate on, in rounds, and writes
// test/bench/results/<date>.{json,md,png}.
//
//	make bench-node
//	go run ./test/bench/cmd/node-bench -pods=10 -rounds=1 -date=try   # a quick check
//
// It needs `make images` (the chart's images) and `hack/tools/build-node.sh` (kubelet,
// kube-proxy); make bench-node does both. The host is changed while it runs (network
// devices, iptables, cgroups, sysctls) and restored by the harness's teardown, which
// checks it against a snapshot taken before.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kruise-native/kruise-native/internal/reporoot"
	"github.com/kruise-native/kruise-native/test/bench/internal/machine"
	"github.com/kruise-native/kruise-native/test/bench/internal/nodebench"
	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

func main() {
	pods := flag.Int("pods", 50, "pods per workload (the node holds 110, kruise-system's among them; one workload runs at a time)")
	maxUnavailable := flag.String("max-unavailable", "25%", "every rollout's maxUnavailable")
	date := flag.String("date", time.Now().UTC().Format("2006-01-02")+"-node-rollout", "results name: <out>/<date>.{json,md,png}")
	out := flag.String("out", "test/bench/results", "results directory (relative to the repository)")
	workloads := flag.String("workloads", "inplace,recreate,deployment", "rollouts to run, in order, of inplace, recreate, deployment")
	preDownload := flag.Bool("predownload", true, "then the in-place rollout again with PreDownloadImageForInPlaceUpdate on")
	timeout := flag.Duration("timeout", 10*time.Minute, "bound of each wait of a rollout")
	rounds := flag.Int("rounds", 3, "rounds, each running every rollout once (order rotated per round); the targets are judged on the median of the rounds' ratios")
	flag.Parse()

	if err := run(*pods, *maxUnavailable, *date, *out, *workloads, *preDownload, *timeout, *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "node-bench:", err)
		var skip *harness.SkipError
		if errors.As(err, &skip) {
			os.Exit(3)
		}
		os.Exit(1)
	}
}

func run(pods int, maxUnavailable, date, out, workloads string, preDownload bool, timeout time.Duration, rounds int) error {
	root, err := reporoot.Find()
	if err != nil {
		return err
	}
	version, images, err := harness.BuiltImages(root)
	if err != nil {
		return fmt.Errorf("%w (make bench-node does)", err)
	}
	var wls []string
	for _, w := range strings.Split(workloads, ",") {
		wl, ok := nodebench.WorkloadNamed(strings.TrimSpace(w))
		if !ok {
			return fmt.Errorf("-workloads: unknown %q", w)
		}
		wls = append(wls, wl)
	}
	logf := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().UTC().Format("15:04:05.000")}, args...)...)
	}
	rs, err := nodebench.Run(context.Background(), nodebench.Config{
		Root: root, Version: version, Images: images, Pods: pods, MaxUnavailable: maxUnavailable,
		Timeout: timeout, Workloads: wls, PreDownload: preDownload, Rounds: rounds, Logf: logf,
	})
	if rs == nil {
		return err
	}
	if err != nil {
		logf("the run stopped early: %v", err)
		rs.Notes = append(rs.Notes, "The run stopped early: "+err.Error())
	}
	rs.Date = date
	rs.Command = "go run ./test/bench/cmd/node-bench " + strings.Join(os.Args[1:], " ")
	rs.Commit = machine.GitCommit(root)
	rs.Summary = nodebench.Summarize(rs)
	rs.Targets = nodebench.Verdicts(rs)
	rs.Notes = append(nodebench.Notes(), rs.Notes...)
	files, werr := nodebench.Write(rs, filepath.Join(root, out))
	if werr != nil {
		return errors.Join(err, werr)
	}
	fmt.Println(nodebench.TargetsTable(rs.Targets))
	fmt.Println(nodebench.Table(rs))
	fmt.Printf("host: %s\nwrote %s\n", rs.HostRestored, strings.Join(files, ", "))
	if strings.HasPrefix(rs.HostRestored, "NOT") {
		return errors.New("the host was not restored: " + rs.HostRestored)
	}
	return err
}
