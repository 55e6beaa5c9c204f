package ctrlbench

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
	"github.com/kruise-native/kruise-native/test/bench/internal/rawclient"
)

// The sides of the scale phase: many small workloads of one kind in one namespace.
const (
	ScaleDeployment = Deployment
	ScaleCloneSet   = "CloneSet"
)

// fleet is many Deployments or CloneSets in one namespace, each with its own selector,
// watched through an informer so that "all done" is judged on a local cache: polling
// 2 000 objects would load the servers whose memory the phase measures.
type fleet struct {
	kind, ns string
	pods     int32
	kube     kubernetes.Interface
	kruise   kruiseclient.Interface
	store    cache.Store
	stop     context.CancelFunc

	mu sync.Mutex
	// minGen: a workload counts as done only once the cache holds at least this
	// generation of it (the one our last change produced).
	minGen map[string]int64
}

func fleetName(i int) string { return fmt.Sprintf("w-%05d", i) }

func newFleet(ctx context.Context, kind, ns string, pods int, kube kubernetes.Interface, kruise kruiseclient.Interface) (*fleet, error) {
	f := &fleet{kind: kind, ns: ns, pods: int32(pods), kube: kube, kruise: kruise, minGen: map[string]int64{}}
	ctx, f.stop = context.WithCancel(ctx)
	var inf cache.SharedIndexInformer
	if kind == ScaleDeployment {
		fac := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace(ns))
		inf = fac.Apps().V1().Deployments().Informer()
		fac.Start(ctx.Done())
	} else {
		fac := kruiseinformers.NewSharedInformerFactoryWithOptions(kruise, 0, kruiseinformers.WithNamespace(ns))
		inf = fac.Apps().V1alpha1().CloneSets().Informer()
		fac.Start(ctx.Done())
	}
	if !cache.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		f.stop()
		return nil, fmt.Errorf("%s informer of %s did not sync", kind, ns)
	}
	f.store = inf.GetStore()
	return f, nil
}

func (f *fleet) close() { f.stop() }

// fleetTemplate: the pods of workload name, distinguished by their own label.
func fleetTemplate(name, image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{podLabel: name}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: containerName, Image: image}}},
	}
}

// ScaleCloneSetObject is the CloneSet the phase creates as workload name (also what the
// CRD copy of the memory comparison stores).
func ScaleCloneSetObject(name string, replicas int32) *v1alpha1.CloneSet {
	return &v1alpha1.CloneSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{podLabel: name}},
			Template: fleetTemplate(name, defaultImage),
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{
				Type:           v1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType,
				MaxUnavailable: ptr.To(intstr.FromString(maxUnavailableAll)),
			},
		},
	}
}

func (f *fleet) create(ctx context.Context, name string, replicas int32) error {
	if f.kind == ScaleDeployment {
		mu := intstr.FromString(maxUnavailableAll)
		obj := &appsv1.Deployment{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: appsv1.DeploymentSpec{
				Replicas: ptr.To(replicas),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{podLabel: name}},
				Template: fleetTemplate(name, defaultImage),
				Strategy: appsv1.DeploymentStrategy{
					Type:          appsv1.RollingUpdateDeploymentStrategyType,
					RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: &mu},
				},
			},
		}
		got, err := f.kube.AppsV1().Deployments(f.ns).Create(ctx, obj, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("creating Deployment %s: %w", name, err)
		}
		f.expect(name, got.Generation)
		return nil
	}
	got, err := f.kruise.AppsV1alpha1().CloneSets(f.ns).Create(ctx, ScaleCloneSetObject(name, replicas), metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating CloneSet %s: %w", name, err)
	}
	f.expect(name, got.Generation)
	return nil
}

// createAll creates n workloads of f.pods pods on workers concurrent requests.
func (f *fleet) createAll(ctx context.Context, n, workers int) error {
	return f.each(ctx, n, workers, func(ctx context.Context, i int) error { return f.create(ctx, fleetName(i), f.pods) })
}

func (f *fleet) each(ctx context.Context, n, workers int, fn func(context.Context, int) error) error {
	return rawclient.Each(ctx, workers, n, fn)
}

func (f *fleet) patch(ctx context.Context, name string, pt types.PatchType, body []byte) error {
	var gen int64
	if f.kind == ScaleDeployment {
		got, err := f.kube.AppsV1().Deployments(f.ns).Patch(ctx, name, pt, body, metav1.PatchOptions{})
		if err != nil {
			return fmt.Errorf("patching Deployment %s: %w", name, err)
		}
		gen = got.Generation
	} else {
		got, err := f.kruise.AppsV1alpha1().CloneSets(f.ns).Patch(ctx, name, pt, body, metav1.PatchOptions{})
		if err != nil {
			return fmt.Errorf("patching CloneSet %s: %w", name, err)
		}
		gen = got.Generation
	}
	f.expect(name, gen)
	return nil
}

func (f *fleet) setImage(ctx context.Context, name, image string) error {
	return f.patch(ctx, name, types.JSONPatchType, imagePatch(image))
}

func (f *fleet) scale(ctx context.Context, name string, replicas int32) error {
	return f.patch(ctx, name, types.MergePatchType, fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas))
}

func (f *fleet) expect(name string, gen int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.minGen[name] = max(f.minGen[name], gen)
}

// done counts the workloads whose cached status says every pod runs the current
// template and is ready (and no other pod is left), out of those the fleet made.
func (f *fleet) done() (done, total int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, o := range f.store.List() {
		var name string
		var gen int64
		var ok bool
		switch w := o.(type) {
		case *appsv1.Deployment:
			s, n := w.Status, ptr.Deref(w.Spec.Replicas, 1)
			name, gen = w.Name, w.Generation
			ok = s.ObservedGeneration >= w.Generation && s.Replicas == n && s.UpdatedReplicas == n &&
				s.ReadyReplicas == n && s.AvailableReplicas == n
		case *v1alpha1.CloneSet:
			s, n := w.Status, ptr.Deref(w.Spec.Replicas, 1)
			name, gen = w.Name, w.Generation
			ok = s.ObservedGeneration >= w.Generation && s.Replicas == n && s.UpdatedReplicas == n &&
				s.UpdatedReadyReplicas == n && s.ReadyReplicas == n
		default:
			continue
		}
		want, made := f.minGen[name]
		if !made {
			continue
		}
		total++
		if ok && gen >= want {
			done++
		}
	}
	return done, total
}

// waitDone waits until all n workloads are done.
func (f *fleet) waitDone(ctx context.Context, n int, timeout time.Duration) error {
	logger := klog.FromContext(ctx)
	last := time.Now()
	var d, t int
	err := wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, timeout, true, func(context.Context) (bool, error) {
		d, t = f.done()
		if time.Since(last) > 30*time.Second {
			logger.Info("Waiting", "workloadsDone", d, "workloadsSeen", t, "want", n)
			last = time.Now()
		}
		return d == n && t == n, nil
	})
	if err != nil {
		return fmt.Errorf("%d of %d workloads done after %s: %w", d, n, timeout, err)
	}
	return nil
}

// PodCount is what the pods themselves say, read once (paged) at the end of a step:
// the controllers' status figures are cross-checked, not trusted.
type PodCount struct {
	Live    int            `json:"live"`
	Ready   int            `json:"ready"`
	ByImage map[string]int `json:"byImage"` // live pods by the image their status reports
}

func countPods(ctx context.Context, kube kubernetes.Interface, ns string) (PodCount, error) {
	c := PodCount{ByImage: map[string]int{}}
	opts := metav1.ListOptions{Limit: 2000}
	for {
		l, err := kube.CoreV1().Pods(ns).List(ctx, opts)
		if err != nil {
			return c, fmt.Errorf("listing the pods of %s: %w", ns, err)
		}
		for i := range l.Items {
			p := &l.Items[i]
			if p.DeletionTimestamp != nil {
				continue
			}
			c.Live++
			for _, cond := range p.Status.Conditions {
				if cond.Type == corev1.PodReady && cond.Status == corev1.ConditionTrue {
					c.Ready++
				}
			}
			for _, s := range p.Status.ContainerStatuses {
				if s.Name == containerName {
					c.ByImage[s.Image]++
				}
			}
		}
		if l.Continue == "" {
			return c, nil
		}
		opts.Continue = l.Continue
	}
}

// remove deletes the workloads, their pods and the namespace with the benchmark's own
// unthrottled client, and waits until the namespace is gone: the other side must start
// on an empty cluster.
func (f *fleet) remove(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
	defer cancel()
	logger := klog.FromContext(ctx)
	bg := metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)}
	// The collection deletes only speed the namespace's deletion up (a delete of
	// thousands of pods can outlast the request timeout and still go on): the
	// namespace being gone is what counts.
	// Owners first, so that no controller makes the pods again.
	var quick []error
	if f.kind == ScaleDeployment {
		quick = append(quick, f.kube.AppsV1().Deployments(f.ns).DeleteCollection(ctx, bg, metav1.ListOptions{}),
			f.kube.AppsV1().ReplicaSets(f.ns).DeleteCollection(ctx, bg, metav1.ListOptions{}))
	} else {
		quick = append(quick, f.kruise.AppsV1alpha1().CloneSets(f.ns).DeleteCollection(ctx, bg, metav1.ListOptions{}))
	}
	quick = append(quick, f.kube.CoreV1().Pods(f.ns).DeleteCollection(ctx, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}, metav1.ListOptions{}))
	if err := errors.Join(quick...); err != nil {
		logger.Info("A collection delete failed; waiting for the namespace's deletion instead", "error", err)
	}
	var errs []error
	if err := DeleteNamespace(ctx, f.kube, f.ns, 2*time.Second); err != nil {
		errs = append(errs, fmt.Errorf("after %s: %w", timeout, err))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("removing %s: %w", f.ns, err)
	}
	return nil
}
