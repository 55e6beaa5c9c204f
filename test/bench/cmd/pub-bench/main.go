// Command pub-bench measures what a PodUnavailableBudget costs pod deletion: on a
// private local stack it deletes N ready pods covered by a budget (every delete goes
// through kruise-apiserver's guard, which spends a slot with a status write), N pods of
// a namespace no budget covers (kube-apiserver's match condition keeps those deletes
// from the webhook), and N pods of a third namespace with the webhook's registration
// removed (the peer of the second), with the same number of concurrent clients. It
// reports the delete throughput, the client-side latency percentiles, and the
// validating webhook's own latency as kube-apiserver measures it
// (apiserver_admission_webhook_admission_duration_seconds).
//
//	go run ./test/bench/cmd/pub-bench                   # 1000 pods each, 16 clients
//	go run ./test/bench/cmd/pub-bench -pods=200 -clients=8
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/internal/reporoot"
	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/bench/internal/rawclient"
	"github.com/kruise-native/kruise-native/test/bench/internal/stack"
	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
	"github.com/kruise-native/kruise-native/test/bench/internal/webhookmetrics"
)

const webhookName = "pods.validate.kruise-native.io"

func main() {
	pods := flag.Int("pods", 1000, "pods deleted in each namespace")
	clients := flag.Int("clients", 16, "concurrent deleting clients")
	nodes := flag.Int("nodes", 3, "kwok nodes")
	rounds := flag.Int("rounds", 3, "rounds of the uncovered namespace against its peer without the registration, in alternating order")
	out := flag.String("out", "", "also write the Markdown report to this file")
	klog.InitFlags(nil)
	flag.Parse()
	ctx := klog.NewContext(context.Background(), klog.Background().WithName("pub-bench"))
	report, err := run(ctx, *pods, *clients, *nodes, *rounds)
	if err != nil {
		klog.FromContext(ctx).Error(err, "Benchmark failed")
		klog.Flush()
		os.Exit(1)
	}
	fmt.Print(report)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(report), 0o644); err != nil {
			klog.FromContext(ctx).Error(err, "Writing the report")
			os.Exit(1)
		}
	}
}

// phase is one measured batch of deletes.
type phase struct {
	name             string
	round            int
	deletes          stats.Summary
	webhookP50       float64 // seconds, from kube-apiserver's histogram (bucket upper bound)
	webhookP99       float64
	webhookCalls     float64
	skipped          float64 // deletes the registration's match condition kept from the webhook
	failOpen, denied float64
}

// The kinds of phase.
const (
	uncovered     = "uncovered"
	notRegistered = "uncovered, not registered"
	covered       = "covered"
)

// phaseOrder is the phases of the run: rounds of the uncovered namespace and its peer,
// the first of each round alternating (batch order moves throughput by tens of percent
// on a small machine), then the covered namespace.
func phaseOrder(rounds int) []phase {
	var out []phase
	for r := 1; r <= rounds; r++ {
		pair := []string{uncovered, notRegistered}
		if r%2 == 0 {
			pair = []string{notRegistered, uncovered}
		}
		for _, name := range pair {
			out = append(out, phase{name: name, round: r})
		}
	}
	return append(out, phase{name: covered})
}

func run(ctx context.Context, n, clients, nodes, rounds int) (string, error) {
	root, err := reporoot.Find()
	if err != nil {
		return "", err
	}
	s, err := stack.Up(ctx, stack.Options{Root: root, Nodes: nodes})
	if err != nil {
		return "", err
	}
	defer s.Down(ctx)
	kube, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		return "", err
	}
	kruise, err := kruiseclient.NewForConfig(s.Config)
	if err != nil {
		return "", err
	}

	var phases []phase
	for i, ph := range phaseOrder(rounds) {
		ns := fmt.Sprintf("pub-bench-%d", i)
		if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
			return "", err
		}
		if err := createReadyPods(ctx, kube, ns, n, nodes, clients); err != nil {
			return "", err
		}
		restore := func() error { return nil }
		switch ph.name {
		case covered:
			if err := createBudget(ctx, kruise, ns, n); err != nil {
				return "", err
			}
		case notRegistered:
			if restore, err = unregister(ctx, kube, ns); err != nil {
				return "", err
			}
		}
		p, err := deleteAll(ctx, kube, ns, n, clients)
		if rerr := restore(); err == nil {
			err = rerr
		}
		if err != nil {
			return "", err
		}
		p.name, p.round = ph.name, ph.round
		phases = append(phases, p)
	}
	return markdown(n, clients, nodes, phases), nil
}

// createReadyPods creates n pods bound to the kwok nodes and waits until kwok reports
// them Running and Ready.
func createReadyPods(ctx context.Context, kube kubernetes.Interface, ns string, n, nodes, clients int) error {
	var failed atomic.Int64
	rawclient.Parallel(ctx, clients, n, func(ctx context.Context, _, i int) {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%05d", i), Labels: map[string]string{"app": "bench"}},
			Spec: corev1.PodSpec{NodeName: fmt.Sprintf("kwok-node-%d", i%nodes),
				Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}},
		}
		if _, err := kube.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			failed.Add(1)
		}
	})
	if f := failed.Load(); f > 0 {
		return fmt.Errorf("%d of %d pod creates failed in %s", f, n, ns)
	}
	return wait.PollUntilContextTimeout(ctx, time.Second, 5*time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		ready := 0
		for i := range list.Items {
			for _, c := range list.Items[i].Status.Conditions {
				if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
					ready++
				}
			}
		}
		return ready == n, nil
	})
}

// createBudget covers every pod of ns with a budget that allows all of them to go
// (maxUnavailable 100%): every delete passes, and every one spends a slot — the
// guard's full path, status write included — so nothing is refused and the two
// phases delete the same pods.
func createBudget(ctx context.Context, kruise kruiseclient.Interface, ns string, n int) error {
	all := intstr.FromString("100%")
	pub := &policyv1beta1.PodUnavailableBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "bench"},
		Spec: policyv1beta1.PodUnavailableBudgetSpec{
			Selector:       &metav1.LabelSelector{MatchLabels: map[string]string{"app": "bench"}},
			MaxUnavailable: &all},
	}
	if _, err := kruise.PolicyV1beta1().PodUnavailableBudgets(ns).Create(ctx, pub, metav1.CreateOptions{}); err != nil {
		return err
	}
	return wait.PollUntilContextTimeout(ctx, time.Second, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		got, err := kruise.PolicyV1beta1().PodUnavailableBudgets(ns).Get(ctx, "bench", metav1.GetOptions{})
		return err == nil && got.Status.ObservedGeneration == got.Generation && got.Status.UnavailableAllowed == int32(n), nil
	})
}

// deleteAll deletes the n pods of ns with clients workers, timing each delete, and
// reads kube-apiserver's webhook metrics around the batch.
func deleteAll(ctx context.Context, kube kubernetes.Interface, ns string, n, clients int) (phase, error) {
	before, err := webhookmetrics.Scrape(ctx, kube, webhookName, "DELETE")
	if err != nil {
		return phase{}, err
	}
	rec := &stats.Recorder{}
	start := time.Now()
	rawclient.Parallel(ctx, clients, n, func(ctx context.Context, _, i int) {
		t := time.Now()
		err := kube.CoreV1().Pods(ns).Delete(ctx, fmt.Sprintf("pod-%05d", i), metav1.DeleteOptions{})
		rec.Add(time.Since(t), 0, 0, err)
	})
	wall := time.Since(start)
	after, err := webhookmetrics.Scrape(ctx, kube, webhookName, "DELETE")
	if err != nil {
		return phase{}, err
	}
	d := webhookmetrics.Between(before, after)
	return phase{deletes: rec.Summarize(wall), webhookCalls: d.Calls, webhookP50: d.P50, webhookP99: d.P99,
		skipped: d.Skipped, failOpen: d.FailOpen, denied: d.Denied}, nil
}

func markdown(n, clients, nodes int, phases []phase) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## PodUnavailableBudget: pod-delete cost (%d pods per namespace, %d clients, %d kwok nodes)\n\n", n, clients, nodes)
	fmt.Fprintf(&b, "| round | pods | deletes/s | client p50 ms | client p99 ms | errors | webhook calls | skipped | webhook p50 ≤ s | webhook p99 ≤ s | failed open | refused |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	perSec := map[int]map[string]float64{}
	var uncoveredRate float64
	for _, p := range phases {
		round := "-"
		if p.round > 0 {
			round = fmt.Sprint(p.round)
		}
		fmt.Fprintf(&b, "| %s | %s | %.1f | %.1f | %.1f | %d | %.0f | %.0f | %g | %g | %.0f | %.0f |\n", round, p.name, p.deletes.PerSec,
			p.deletes.P50ms, p.deletes.P99ms, p.deletes.Errors, p.webhookCalls, p.skipped, p.webhookP50, p.webhookP99, p.failOpen, p.denied)
		if perSec[p.round] == nil {
			perSec[p.round] = map[string]float64{}
		}
		perSec[p.round][p.name] = p.deletes.PerSec
		if p.name == uncovered {
			uncoveredRate = p.deletes.PerSec
		}
		if p.name == covered && p.deletes.FirstError != "" {
			fmt.Fprintf(&b, "\nFirst error (covered): %s\n", p.deletes.FirstError)
		}
	}
	var ratios []float64
	for r := 1; perSec[r] != nil; r++ {
		ratios = append(ratios, perSec[r][uncovered]/max(perSec[r][notRegistered], 0.001))
	}
	if len(ratios) > 0 {
		text := make([]string, len(ratios))
		for i, r := range ratios {
			text[i] = fmt.Sprintf("%.2f", r)
		}
		slices.Sort(ratios)
		fmt.Fprintf(&b, "\nUncovered vs not registered (what the registration costs a namespace without budgets): throughput %.2fx, median of %d rounds (%s).\n",
			ratios[len(ratios)/2], len(ratios), strings.Join(text, ", "))
	}
	if c := perSec[0][covered]; c > 0 && uncoveredRate > 0 {
		fmt.Fprintf(&b, "Covered vs the last uncovered batch: throughput %.2fx (the budget's cost: a slot spent, with a status write, per delete).\n",
			c/uncoveredRate)
	}
	return b.String()
}

// unregister removes the Pod webhook's ValidatingWebhookConfiguration and waits until
// kube-apiserver's admission chain no longer has it: a dry-run delete in ns is counted
// as skipped by the registration's match condition while it is there. restore creates
// it again as it was (the keeper in kruise-apiserver then keeps its condition).
func unregister(ctx context.Context, kube kubernetes.Interface, ns string) (restore func() error, err error) {
	api := kube.AdmissionregistrationV1().ValidatingWebhookConfigurations()
	saved, err := api.Get(ctx, podwebhook.ConfigurationName, metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("the Pod webhook's validating registration: %w", err)
	}
	if err := api.Delete(ctx, saved.Name, metav1.DeleteOptions{}); err != nil {
		return nil, fmt.Errorf("removing the Pod webhook's validating registration: %w", err)
	}
	restore = func() error {
		c := saved.DeepCopy()
		c.ResourceVersion, c.UID, c.CreationTimestamp, c.ManagedFields, c.Generation = "", "", metav1.Time{}, nil, 0
		if _, err := api.Create(context.WithoutCancel(ctx), c, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("registering the Pod webhook again: %w", err)
		}
		return nil
	}
	err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		before, err := webhookmetrics.Scrape(ctx, kube, webhookName, "DELETE")
		if err != nil {
			return false, nil
		}
		if err := kube.CoreV1().Pods(ns).Delete(ctx, "pod-00000", metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
			return false, nil
		}
		after, err := webhookmetrics.Scrape(ctx, kube, webhookName, "DELETE")
		return err == nil && after.Skipped == before.Skipped && after.Count == before.Count, nil
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("kube-apiserver still has the Pod webhook's validating registration: %w", err), restore())
	}
	return restore, nil
}
