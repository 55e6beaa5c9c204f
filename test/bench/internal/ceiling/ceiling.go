// Package ceiling measures how fast a bare client with no rate limit can create pods on
// the same stack: the upper bound that makes the controllers' 20 QPS the bottleneck.
package ceiling

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
	"github.com/kruise-native/kruise-native/test/bench/internal/rawclient"
	"github.com/kruise-native/kruise-native/test/bench/internal/stats"
)

// Options of the ceiling run.
type Options struct {
	Pods    int
	Clients int
	Nodes   int
}

// Result of the ceiling run.
type Result struct {
	Pods    int           `json:"pods"`
	Clients int           `json:"clients"`
	Create  stats.Summary `json:"create"`
	// RunningSeconds: from the first create until every pod was Running and Ready (kwok
	// and the node daemons writing their status while creates go on), 0 if not reached.
	RunningSeconds float64 `json:"runningSeconds"`
	// Processes over the run, with all pods cached by every informer: kruise-controller's
	// peak RSS here is its memory with Pods pods in the cluster (it owns none of them).
	Processes map[string]proc.Usage `json:"processes"`
}

const namespace = "bench-ceiling"

// Run creates o.Pods pods with o.Clients concurrent clients. Pods name their node
// (round robin over the kwok nodes), so the scheduler is out of the loop and node
// capacity does not cap the count; kwok and the node daemons still run each pod.
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
	bodies := make([][]byte, o.Pods)
	for i := range bodies {
		if bodies[i], err = podBody(i, fmt.Sprintf("kwok-node-%d", i%o.Nodes)); err != nil {
			return nil, err
		}
	}
	res := &Result{Pods: o.Pods, Clients: o.Clients}
	usage := proc.StartWatch(ctx, pids)
	var rec stats.Recorder
	path := "/api/v1/namespaces/" + namespace + "/pods"
	start := time.Now()
	rawclient.Parallel(ctx, o.Clients, o.Pods, func(ctx context.Context, w, i int) {
		r, d, err := clients[w].Do(ctx, "POST", path, rawclient.JSON, rawclient.JSON, bodies[i], false)
		rec.Add(d, r.Bytes, r.Wire, err)
	})
	res.Create = rec.Summarize(time.Since(start))
	logger.Info("Pods created", "summary", res.Create)

	err = wait.PollUntilContextTimeout(ctx, time.Second, 5*time.Minute, true, func(ctx context.Context) (bool, error) {
		pods, err := kube.CoreV1().Pods(namespace).List(ctx, metav1.ListOptions{ResourceVersion: "0"})
		if err != nil {
			return false, nil
		}
		ready := 0
		for i := range pods.Items {
			for _, c := range pods.Items[i].Status.Conditions {
				if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
					ready++
				}
			}
		}
		return ready == o.Pods, nil
	})
	if err == nil {
		res.RunningSeconds = time.Since(start).Seconds()
	} else {
		logger.Info("Not every pod became Ready within 5 minutes", "error", err)
	}
	time.Sleep(5 * time.Second) // let the informers and daemons settle with every pod
	res.Processes = usage.Stop()
	return res, nil
}

func podBody(i int, node string) ([]byte, error) {
	p := corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("ceiling-%05d", i), Labels: map[string]string{"bench": "ceiling"}},
		Spec: corev1.PodSpec{
			NodeName:   node,
			Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}},
		},
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encoding pod %d: %w", i, err)
	}
	return b, nil
}

func cleanup(ctx context.Context, kube kubernetes.Interface) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Minute)
	defer cancel()
	logger := klog.FromContext(ctx)
	if err := kube.CoreV1().Pods(namespace).DeleteCollection(ctx, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}, metav1.ListOptions{}); err != nil {
		logger.Error(err, "Deleting the pods")
	}
	if err := kube.CoreV1().Namespaces().Delete(ctx, namespace, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		logger.Error(err, "Deleting the namespace")
	}
	_ = wait.PollUntilContextCancel(ctx, time.Second, true, func(ctx context.Context) (bool, error) {
		_, err := kube.CoreV1().Namespaces().Get(ctx, namespace, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
}
