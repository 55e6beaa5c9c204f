// Package ceiling measures how fast a bare client with no rate limit can create pods on
// the same stack: the upper bound that makes the controllers' 20 QPS the bottleneck. It
// runs the batch with the Pod webhook registered (as every stack runs, with a SidecarSet
// that selects none of its pods) and with its MutatingWebhookConfiguration removed, in alternating order, so
// the webhook's cost is a ratio measured in one run.
package ceiling

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
	"github.com/kruise-native/kruise-native/test/bench/internal/rawclient"
	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
	"github.com/kruise-native/kruise-native/test/bench/internal/webhookmetrics"
)

// WebhookName is the Pod webhook's mutating entry, the one a pod create calls.
const WebhookName = "pods.mutate.kruise-native.io"

// Options of the ceiling run.
type Options struct {
	Pods    int
	Clients int
	Nodes   int
	// Rounds of one batch with the webhook and one without; odd rounds run without it
	// first, even rounds with it first. 0 runs only the batch with the webhook.
	Rounds int
	// Quiet: the stack's processes (name → pid), node daemons included. Each batch starts
	// once together they use less than QuietCores over quietWindow, so no batch pays for
	// the previous one's deletes still being worked through.
	Quiet      map[string]int
	QuietCores float64
}

// quietWindow and quietLimit bound the wait for a quiet stack before each batch.
const (
	quietWindow = 2 * time.Second
	quietLimit  = 2 * time.Minute
)

// Batch is one batch of Pods creates.
type Batch struct {
	Round   int           `json:"round"`
	Webhook bool          `json:"webhook"` // the Pod webhook was registered
	Create  stats.Summary `json:"create"`
	// RunningSeconds: from the first create until every pod was Running and Ready (kwok
	// and the node daemons writing their status while creates go on), 0 if not reached.
	RunningSeconds float64 `json:"runningSeconds"`
	// Calls: kube-apiserver's view of the Pod webhook's CREATE calls during the creates
	// (apiserver_admission_webhook_*), fail-open count included. 0 calls without it.
	Calls webhookmetrics.Delta `json:"calls"`
	// Quiet: the wait for a quiet stack before the batch.
	Quiet proc.Idle `json:"quiet"`
	// CPUSeconds: each process's CPU from the first create until all were Ready.
	CPUSeconds map[string]float64 `json:"cpuSeconds,omitempty"`
}

// Result of the ceiling run.
type Result struct {
	Pods    int `json:"pods"`
	Clients int `json:"clients"`
	// QuietCores: the CPU bound under which the stack counted as quiet before a batch.
	QuietCores float64 `json:"quietCores,omitempty"`
	// Create and RunningSeconds are the first batch with the webhook registered (what
	// results before the comparison existed reported).
	Create         stats.Summary `json:"create"`
	RunningSeconds float64       `json:"runningSeconds"`
	// Batches in the order they ran.
	Batches []Batch `json:"batches,omitempty"`
	// Processes over the run, with all pods cached by every informer: kruise-controller's
	// peak RSS here is its memory with Pods pods in the cluster (it owns none of them).
	Processes map[string]proc.Usage `json:"processes"`
	// Settled: each process's RSS (median of 1 s samples over settleWindow) after the
	// last batch's pods were all Ready, with every pod of it in the cluster.
	Settled map[string]proc.Steady `json:"settled,omitempty"`
}

// settleWindow is how long the processes' RSS is sampled after the last batch.
const settleWindow = 5 * time.Second

// Ratio is the median over rounds of pods/s with the webhook over pods/s without it,
// and the webhook calls that failed open in all batches. missing says why there is no
// ratio (empty when there is one): no round has both batches, or a batch had failed
// creates. PerSec counts successes only, and a failed create can be the webhook's
// doing (or the stack's), so a round with failures says nothing about the cost.
func (r *Result) Ratio() (ratio float64, failOpen float64, missing string) {
	with, without := map[int]float64{}, map[int]float64{}
	var failed []string
	for _, b := range r.Batches {
		failOpen += b.Calls.FailOpen
		if b.Create.Errors > 0 {
			failed = append(failed, fmt.Sprintf("round %d %s: %d of %d creates failed (%s)",
				b.Round, webhookState(b.Webhook), b.Create.Errors, b.Create.Requests, b.Create.FirstError))
		}
		if b.Webhook {
			with[b.Round] = b.Create.PerSec
		} else {
			without[b.Round] = b.Create.PerSec
		}
	}
	if len(failed) > 0 {
		return 0, failOpen, strings.Join(failed, "; ")
	}
	var ratios []float64
	for round, w := range with {
		if wo, found := without[round]; found && wo > 0 {
			ratios = append(ratios, w/wo)
		}
	}
	if len(ratios) == 0 {
		return 0, failOpen, "no round with a batch with the webhook and one without"
	}
	slices.Sort(ratios)
	n := len(ratios)
	if n%2 == 1 {
		return ratios[n/2], failOpen, ""
	}
	return (ratios[n/2-1] + ratios[n/2]) / 2, failOpen, ""
}

func webhookState(registered bool) string {
	if registered {
		return "with the webhook"
	}
	return "without the webhook"
}

const namespace = "bench-ceiling"

// Run creates o.Pods pods with o.Clients concurrent clients, once per batch. Pods name
// their node (round robin over the kwok nodes), so the scheduler is out of the loop and
// node capacity does not cap the count; kwok and the node daemons still run each pod.
// Each batch's pods are deleted before the next.
func Run(ctx context.Context, cfg *rest.Config, kube kubernetes.Interface, o Options, pids map[string]int) (*Result, error) {
	logger := klog.FromContext(ctx)
	if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("creating namespace %s: %w", namespace, err)
	}
	defer cleanup(ctx, kube)
	if err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := kube.CoreV1().ServiceAccounts(namespace).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	}); err != nil {
		return nil, fmt.Errorf("no default ServiceAccount in %s: %w", namespace, err)
	}
	clients, err := rawclient.NewClients(cfg, o.Clients)
	if err != nil {
		return nil, err
	}
	removeElsewhere, err := createElsewhere(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := removeElsewhere(context.WithoutCancel(ctx)); err != nil {
			logger.Error(err, "Removing the SidecarSet")
		}
	}()
	reg, err := saveRegistration(ctx, kube)
	if err != nil {
		return nil, err
	}
	// Whatever happens, the stack keeps its webhook.
	defer func() {
		if err := reg.restore(context.WithoutCancel(ctx)); err != nil {
			logger.Error(err, "Registering the Pod webhook again")
		}
	}()

	res := &Result{Pods: o.Pods, Clients: o.Clients, QuietCores: o.QuietCores}
	usage := proc.StartWatch(ctx, pids)
	plan := []bool{true}
	if o.Rounds > 0 {
		plan = nil
		for round := 1; round <= o.Rounds; round++ {
			plan = append(plan, round%2 == 0, round%2 == 1)
		}
	}
	for i, webhook := range plan {
		round := i/2 + 1
		if err := reg.set(ctx, kube, webhook); err != nil {
			res.Processes = usage.Stop()
			return res, err
		}
		// Each batch's pods have their own names, so no state left by a deleted pod (kwok's,
		// a node daemon's) is taken for a new one: with reused names the second batch's
		// pods were not all Ready within the bound.
		bodies := make([][]byte, o.Pods)
		for j := range bodies {
			if bodies[j], err = podBody(fmt.Sprintf("ceiling-%d-%05d", i, j), fmt.Sprintf("kwok-node-%d", j%o.Nodes)); err != nil {
				res.Processes = usage.Stop()
				return res, err
			}
		}
		quiet := proc.WaitIdle(ctx, o.Quiet, quietWindow, o.QuietCores, quietLimit)
		logger.Info("Stack quiet before the batch", "waited", quiet.Seconds, "reached", quiet.Reached, "cores", quiet.Cores)
		cpuBefore := proc.CPU(o.Quiet)
		b, err := batch(ctx, kube, clients, bodies, webhook)
		if err != nil {
			res.Processes = usage.Stop()
			return res, err
		}
		b.Round, b.Quiet = round, quiet
		b.CPUSeconds = proc.Used(cpuBefore, proc.CPU(o.Quiet))
		logger.Info("Ceiling batch", "round", round, "webhook", webhook, "create", b.Create, "webhookCalls", b.Calls)
		res.Batches = append(res.Batches, *b)
		if webhook && res.Create.Requests == 0 {
			res.Create, res.RunningSeconds = b.Create, b.RunningSeconds
		}
		if i < len(plan)-1 {
			if err := deletePods(ctx, kube, clients, i, o.Pods); err != nil {
				res.Processes = usage.Stop()
				return res, err
			}
		}
	}
	// With every pod of the last batch Ready and the usage watch still running, read
	// each process's settled RSS: the informers and node daemons holding every pod.
	res.Settled = proc.SampleSteady(ctx, pids, 0, settleWindow)
	res.Processes = usage.Stop()
	return res, nil
}

// batch creates every pod, then waits until all are Ready.
func batch(ctx context.Context, kube kubernetes.Interface, clients []*rawclient.Client, bodies [][]byte, webhook bool) (*Batch, error) {
	logger := klog.FromContext(ctx)
	before, err := webhookmetrics.Scrape(ctx, kube, WebhookName, "CREATE")
	if err != nil {
		return nil, err
	}
	var rec stats.Recorder
	path := "/api/v1/namespaces/" + namespace + "/pods"
	start := time.Now()
	rawclient.Parallel(ctx, len(clients), len(bodies), func(ctx context.Context, w, i int) {
		r, d, err := clients[w].Do(ctx, "POST", path, rawclient.JSON, rawclient.JSON, bodies[i], false)
		rec.Add(d, r.Bytes, r.Wire, err)
	})
	b := &Batch{Webhook: webhook, Create: rec.Summarize(time.Since(start))}
	after, err := webhookmetrics.Scrape(ctx, kube, WebhookName, "CREATE")
	if err != nil {
		return nil, err
	}
	b.Calls = webhookmetrics.Between(before, after)

	// Only the pods actually created can become Ready: waiting for len(bodies) after a
	// failed create would sit out the whole bound.
	created := b.Create.Requests - b.Create.Errors
	if created == 0 {
		logger.Info("No pod created: nothing to wait for", "firstError", b.Create.FirstError)
		return b, nil
	}
	err = wait.PollUntilContextTimeout(ctx, time.Second, 5*time.Minute, true, func(ctx context.Context) (bool, error) {
		pods, err := kube.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			return false, nil
		}
		return allReady(pods.Items, created), nil
	})
	if err == nil {
		b.RunningSeconds = time.Since(start).Seconds()
	} else {
		logger.Info("Not every created pod became Ready within 5 minutes", "created", created, "error", err)
	}
	return b, nil
}

// allReady: at least created of pods are Ready. At least, not exactly: a create the
// client saw fail (a timeout) may still have been stored.
func allReady(pods []corev1.Pod, created int) bool {
	ready := 0
	for i := range pods {
		for _, c := range pods[i].Status.Conditions {
			if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
				ready++
			}
		}
	}
	return ready >= created
}

func podBody(name, node string) ([]byte, error) {
	p := corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"bench": "ceiling"}},
		Spec: corev1.PodSpec{
			NodeName:   node,
			Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}},
		},
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encoding pod %s: %w", name, err)
	}
	return b, nil
}

// deletePods deletes the batch's pods, one request per pod from every client (a
// DeleteCollection of thousands of pods outlives kube-apiserver's request timeout, each
// delete passing the Pod webhook's validating entry), and waits until none is left, so
// the next batch starts on the same cluster.
func deletePods(ctx context.Context, kube kubernetes.Interface, clients []*rawclient.Client, batch, n int) error {
	body := []byte(`{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":0}`)
	rawclient.Parallel(ctx, len(clients), n, func(ctx context.Context, w, i int) {
		path := fmt.Sprintf("/api/v1/namespaces/%s/pods/ceiling-%d-%05d", namespace, batch, i)
		_, _, _ = clients[w].Do(ctx, "DELETE", path, rawclient.JSON, rawclient.JSON, body, false)
	})
	if err := wait.PollUntilContextTimeout(ctx, time.Second, 5*time.Minute, true, func(ctx context.Context) (bool, error) {
		pods, err := kube.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{Limit: 1})
		return err == nil && len(pods.Items) == 0, nil
	}); err != nil {
		return fmt.Errorf("the ceiling's pods are still there: %w", err)
	}
	return nil
}

func cleanup(ctx context.Context, kube kubernetes.Interface) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Minute)
	defer cancel()
	logger := klog.FromContext(ctx)
	if err := kube.CoreV1().Pods(namespace).DeleteCollection(ctx, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}, metav1.ListOptions{}); err != nil {
		logger.Error(err, "Deleting the pods")
	}
	if err := ctrlbench.DeleteNamespace(ctx, kube, namespace, time.Second); err != nil {
		logger.Error(err, "Deleting the namespace")
	}
}
