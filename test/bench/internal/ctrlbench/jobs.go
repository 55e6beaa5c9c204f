package ctrlbench

import (
	"context"
	"fmt"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

// The run-to-completion workloads compared: a BroadcastJob (one pod on each of the
// nodes) and kube's Job with parallelism = completions = the number of nodes.
const (
	KubeJob      = "Job"
	BroadcastJob = "BroadcastJob"
)

// JobRun is one job measured from its creation until its Complete condition.
type JobRun struct {
	Workload string `json:"workload"` // Job or BroadcastJob
	Nodes    int    `json:"nodes"`
	Pods     int    `json:"pods"`
	// Seconds from the create until the job's Complete condition.
	Seconds  float64 `json:"seconds"`
	TimedOut bool    `json:"timedOut,omitempty"`
	// ControllerWrites: the job controller's writes (kube-controller-manager's
	// job-controller, kruise-controller), events left out, by "verb resource".
	ControllerWrites       map[string]int            `json:"controllerWrites"`
	ControllerWritesPerPod float64                   `json:"controllerWritesPerPod"`
	ControllerEvents       int                       `json:"controllerEvents"`
	AllWrites              map[string]map[string]int `json:"allWrites"`
	AllWritesPerPod        float64                   `json:"allWritesPerPod"`
	KruiseControllerMetric map[string]float64        `json:"kruiseControllerMetric,omitempty"`
	Processes              map[string]proc.Usage     `json:"processes"`
}

// RunJob creates one job of kind whose pods, one per node, finish after kwok's
// modelled run time (hack/local/kwok/pod-complete.yaml), and measures it until it is
// Complete. The namespace and its pods are always removed before it returns.
func RunJob(ctx context.Context, env Env, kind string, nodes int, timeout time.Duration) (JobRun, error) {
	r := JobRun{Workload: kind, Nodes: nodes, Pods: nodes}
	ns := "bench-" + strings.ToLower(kind)
	ctx = klog.NewContext(ctx, klog.FromContext(ctx).WithValues("workload", kind, "namespace", ns))
	if err := createNamespace(ctx, env.Kube, ns); err != nil {
		return r, err
	}
	j := &job{kind: kind, ns: ns, kube: env.Kube, kruise: env.Kruise}
	defer cleanup(ctx, env.Kube, j)

	metricBefore, _ := env.KruiseWrites(ctx)
	if _, err := env.Audit.Count(audit.Filter{}); err != nil { // skip what came before
		return r, err
	}
	usage := proc.StartWatch(ctx, env.PIDs)
	start := time.Now()
	if err := j.create(ctx, int32(nodes)); err != nil {
		usage.Stop()
		return r, err
	}
	desc := ""
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		ok, d, err := j.complete(ctx)
		desc = d
		return ok && err == nil, nil
	})
	end := time.Now()
	r.Seconds = round(end.Sub(start).Seconds())
	if err != nil {
		if ctx.Err() != nil {
			usage.Stop()
			return r, ctx.Err()
		}
		r.TimedOut = true
		klog.FromContext(ctx).Info("Job timed out", "after", timeout, "status", desc)
	}
	time.Sleep(settle)
	r.Processes = usage.Stop()

	counts, err := env.Audit.Count(audit.Filter{Namespace: ns, From: start, To: end.Add(settle)})
	if err != nil {
		return r, err
	}
	delete(counts, "bench")
	r.AllWrites = counts
	r.AllWritesPerPod = round(float64(counts.Total()) / float64(r.Pods))
	r.ControllerWrites = map[string]int{}
	total := 0
	for _, c := range controllerClients(kind) {
		for k, v := range counts[c] {
			if strings.HasSuffix(k, " events") {
				r.ControllerEvents += v
				continue
			}
			r.ControllerWrites[k] += v
			total += v
		}
	}
	r.ControllerWritesPerPod = round(float64(total) / float64(r.Pods))
	if kind == BroadcastJob {
		if after, err := env.KruiseWrites(ctx); err == nil {
			r.KruiseControllerMetric = map[string]float64{}
			for k, v := range after {
				if d := v - metricBefore[k]; d != 0 {
					r.KruiseControllerMetric[k] = d
				}
			}
		}
	}
	klog.FromContext(ctx).Info("Job done", "seconds", r.Seconds, "timedOut", r.TimedOut,
		"controllerWritesPerPod", r.ControllerWritesPerPod, "controllerWrites", r.ControllerWrites)
	return r, nil
}

// job is the Job or BroadcastJob under test.
type job struct {
	kind   string
	ns     string
	kube   kubernetes.Interface
	kruise kruiseclient.Interface
}

func jobPodSpec() corev1.PodSpec {
	return corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: containerName, Image: "busybox"}}}
}

func (j *job) create(ctx context.Context, pods int32) error {
	meta := metav1.ObjectMeta{Name: workloadName}
	if j.kind == KubeJob {
		obj := &batchv1.Job{ObjectMeta: meta, Spec: batchv1.JobSpec{
			Parallelism: ptr.To(pods), Completions: ptr.To(pods),
			Template: corev1.PodTemplateSpec{Spec: jobPodSpec()},
		}}
		if _, err := j.kube.BatchV1().Jobs(j.ns).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("creating the Job: %w", err)
		}
		return nil
	}
	obj := &v1beta1.BroadcastJob{ObjectMeta: meta, Spec: v1beta1.BroadcastJobSpec{
		Template: corev1.PodTemplateSpec{Spec: jobPodSpec()},
	}}
	if _, err := j.kruise.AppsV1beta1().BroadcastJobs(j.ns).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the BroadcastJob: %w", err)
	}
	return nil
}

// complete reports whether the job carries its Complete condition.
func (j *job) complete(ctx context.Context) (bool, string, error) {
	if j.kind == KubeJob {
		o, err := j.kube.BatchV1().Jobs(j.ns).Get(ctx, workloadName, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		for _, c := range o.Status.Conditions {
			if c.Type == batchv1.JobComplete && c.Status == corev1.ConditionTrue {
				return true, "", nil
			}
		}
		s := o.Status
		return false, fmt.Sprintf("active=%d succeeded=%d failed=%d", s.Active, s.Succeeded, s.Failed), nil
	}
	o, err := j.kruise.AppsV1beta1().BroadcastJobs(j.ns).Get(ctx, workloadName, metav1.GetOptions{})
	if err != nil {
		return false, "", err
	}
	for _, c := range o.Status.Conditions {
		if c.Type == v1beta1.JobComplete && c.Status == corev1.ConditionTrue {
			return true, "", nil
		}
	}
	s := o.Status
	return false, fmt.Sprintf("desired=%d active=%d succeeded=%d failed=%d", s.Desired, s.Active, s.Succeeded, s.Failed), nil
}

func (j *job) delete(ctx context.Context) error {
	bg := metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)}
	var err error
	if j.kind == KubeJob {
		err = j.kube.BatchV1().Jobs(j.ns).Delete(ctx, workloadName, bg)
	} else {
		err = j.kruise.AppsV1beta1().BroadcastJobs(j.ns).Delete(ctx, workloadName, bg)
	}
	if err != nil {
		return fmt.Errorf("deleting the %s: %w", j.kind, err)
	}
	return nil
}

func (j *job) namespace() string { return j.ns }
