// Command ws-bench measures what a WorkloadSpread costs pod creation: on a private local
// stack it scales a CloneSet from 0 to N twice, in a namespace without a spread and in
// one whose WorkloadSpread targets the CloneSet (three zone subsets, the first two
// capped, so every create reserves a slot with a status write through kruise-apiserver's
// pod webhook). It reports the pod-create throughput (pods created per second of the
// scale-up), the mutating webhook's latency as kube-apiserver measures it
// (apiserver_admission_webhook_admission_duration_seconds, CREATE) and the calls that
// failed open. The CloneSet controller creating the pods is the ceiling both runs share.
//
//	go run ./test/bench/cmd/ws-bench                     # 600 pods each
//	go run ./test/bench/cmd/ws-bench -pods=200
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/internal/reporoot"
	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/bench/internal/stack"
	"github.com/kruise-native/kruise-native/test/bench/internal/webhookmetrics"
)

const webhookName = "pods.mutate.kruise-native.io"

func main() {
	pods := flag.Int("pods", 600, "pods created in each namespace")
	nodes := flag.Int("nodes", 3, "kwok nodes (zones a, b, c in turn)")
	out := flag.String("out", "", "also write the Markdown report to this file")
	klog.InitFlags(nil)
	flag.Parse()
	ctx := klog.NewContext(context.Background(), klog.Background().WithName("ws-bench"))
	report, err := run(ctx, *pods, *nodes)
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

type phase struct {
	name    string
	wall    time.Duration
	perSec  float64
	webhook webhookmetrics.Delta
	placed  int
}

func run(ctx context.Context, n, nodes int) (string, error) {
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
	for _, spread := range []bool{false, true} {
		name := "no spread"
		ns := "ws-bench-none"
		if spread {
			name, ns = "spread", "ws-bench-spread"
		}
		if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
			return "", err
		}
		if err := createCloneSet(ctx, kruise, ns); err != nil {
			return "", err
		}
		if spread {
			if err := createSpread(ctx, kruise, ns, n); err != nil {
				return "", err
			}
		}
		p, err := scaleUp(ctx, kube, kruise, ns, n)
		if err != nil {
			return "", err
		}
		p.name = name
		phases = append(phases, p)
	}
	return markdown(n, nodes, phases), nil
}

func createCloneSet(ctx context.Context, kruise kruiseclient.Interface, ns string) error {
	labels := map[string]string{"app": "bench"}
	cs := &appsv1beta1.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: "bench"},
		Spec: appsv1beta1.CloneSetSpec{Replicas: ptr.To[int32](0), Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}}}}}
	_, err := kruise.AppsV1beta1().CloneSets(ns).Create(ctx, cs, metav1.CreateOptions{})
	return err
}

// createSpread spreads the CloneSet over zones a and b (a third of the pods each) and c
// (the rest), and waits until the controller has counted it.
func createSpread(ctx context.Context, kruise kruiseclient.Interface, ns string, n int) error {
	zone := func(z string) *corev1.NodeSelectorTerm {
		return &corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{
			{Key: "topology.kubernetes.io/zone", Operator: corev1.NodeSelectorOpIn, Values: []string{z}}}}
	}
	third := intstr.FromInt32(int32(n / 3))
	ws := &appsv1beta1.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Name: "bench"},
		Spec: appsv1beta1.WorkloadSpreadSpec{
			TargetReference: &appsv1beta1.TargetReference{APIVersion: "apps.kruise.io/v1beta1", Kind: "CloneSet", Name: "bench"},
			Subsets: []appsv1beta1.WorkloadSpreadSubset{
				{Name: "a", RequiredNodeSelectorTerm: zone("a"), MaxReplicas: &third},
				{Name: "b", RequiredNodeSelectorTerm: zone("b"), MaxReplicas: &third},
				{Name: "c", RequiredNodeSelectorTerm: zone("c")},
			}}}
	if _, err := kruise.AppsV1beta1().WorkloadSpreads(ns).Create(ctx, ws, metav1.CreateOptions{}); err != nil {
		return err
	}
	return wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		got, err := kruise.AppsV1beta1().WorkloadSpreads(ns).Get(ctx, "bench", metav1.GetOptions{})
		return err == nil && got.Status.ObservedGeneration == got.Generation && len(got.Status.SubsetStatuses) == 3, nil
	})
}

// scaleUp scales the CloneSet to n and times it until n pods exist, reading kube-apiserver's
// webhook metrics around it.
func scaleUp(ctx context.Context, kube kubernetes.Interface, kruise kruiseclient.Interface, ns string, n int) (phase, error) {
	before, err := webhookmetrics.Scrape(ctx, kube, webhookName, "CREATE")
	if err != nil {
		return phase{}, err
	}
	start := time.Now()
	if _, err := kruise.AppsV1beta1().CloneSets(ns).Patch(ctx, "bench", types.MergePatchType,
		[]byte(fmt.Sprintf(`{"spec":{"replicas":%d}}`, n)), metav1.PatchOptions{}); err != nil {
		return phase{}, err
	}
	var list *corev1.PodList
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, 10*time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err = kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{ResourceVersion: "0"})
		return err == nil && len(list.Items) >= n, nil
	})
	if err != nil {
		return phase{}, fmt.Errorf("waiting for %d pods in %s: %w", n, ns, err)
	}
	wall := time.Since(start)
	after, err := webhookmetrics.Scrape(ctx, kube, webhookName, "CREATE")
	if err != nil {
		return phase{}, err
	}
	p := phase{wall: wall, perSec: float64(n) / wall.Seconds(), webhook: webhookmetrics.Between(before, after)}
	for _, pod := range list.Items {
		if _, ok := pod.Annotations[appsv1beta1.WorkloadSpreadAnnotation]; ok {
			p.placed++
		}
	}
	return p, nil
}

func markdown(n, nodes int, phases []phase) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## WorkloadSpread: pod-create cost (CloneSet scaled 0 → %d, %d kwok nodes)\n\n", n, nodes)
	fmt.Fprintf(&b, "| namespace | scale-up s | pods created/s | webhook calls | webhook p50 ≤ s | webhook p99 ≤ s | failed open | pods placed |\n")
	fmt.Fprintf(&b, "|---|---|---|---|---|---|---|---|\n")
	for _, p := range phases {
		fmt.Fprintf(&b, "| %s | %.1f | %.1f | %.0f | %g | %g | %.0f | %d |\n", p.name, p.wall.Seconds(), p.perSec,
			p.webhook.Calls, p.webhook.P50, p.webhook.P99, p.webhook.FailOpen, p.placed)
	}
	if len(phases) == 2 {
		fmt.Fprintf(&b, "\nSpread vs none: throughput %.2fx (target ≥ 0.9x), webhook p99 %g s vs %g s, %0.f calls failed open.\n",
			phases[1].perSec/max(phases[0].perSec, 0.001), phases[1].webhook.P99, phases[0].webhook.P99, phases[1].webhook.FailOpen)
	}
	return b.String()
}
