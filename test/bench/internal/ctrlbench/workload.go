package ctrlbench

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// Kinds of workload compared.
const (
	Deployment        = "Deployment"
	CloneSetInPlace   = "CloneSet InPlaceIfPossible"
	CloneSetRecreate  = "CloneSet ReCreate"
	workloadName      = "bench"
	containerName     = "main"
	podLabel          = "bench-app"
	defaultImage      = "nginx:1.25"
	rolloutImage      = "nginx:1.26"
	maxUnavailableAll = "25%" // Deployment's default; CloneSets get the same
)

// workload is one Deployment, CloneSet or daemon set under test.
type workload interface {
	create(ctx context.Context) error
	setImage(ctx context.Context, image string) error
	// done reports whether the workload's own status says replicas pods run image,
	// all ready and nothing old left, with a short description for logs.
	done(ctx context.Context, replicas int32) (bool, string, error)
	// delete removes the workload and whatever owns pods under it, so that no
	// controller recreates the pods the cleanup deletes.
	delete(ctx context.Context) error
	namespace() string
}

// scalable workloads are created with no pods and then scaled up; the others (the
// daemon sets) run one pod per node from their creation, which is their first phase.
type scalable interface {
	workload
	scale(ctx context.Context, replicas int32) error
}

func newWorkload(kind, ns string, kube kubernetes.Interface, kruise kruiseclient.Interface) workload {
	switch kind {
	case KubeDaemonSet, DaemonSetInPlace, DaemonSetRecreate:
		return newDaemonSet(kind, ns, kube, kruise)
	case Deployment:
		return &deployment{ns: ns, c: kube}
	}
	t := v1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType
	if kind == CloneSetRecreate {
		t = v1alpha1.RecreateCloneSetUpdateStrategyType
	}
	return &cloneSet{ns: ns, c: kruise, strategy: t}
}

func podTemplate() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{podLabel: workloadName}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: containerName, Image: defaultImage}}},
	}
}

func imagePatch(image string) []byte {
	return fmt.Appendf(nil, `[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":%q}]`, image)
}

type deployment struct {
	ns string
	c  kubernetes.Interface
}

func (d *deployment) create(ctx context.Context) error {
	mu := intstr.FromString(maxUnavailableAll)
	obj := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: workloadName},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](0),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{podLabel: workloadName}},
			Template: podTemplate(),
			Strategy: appsv1.DeploymentStrategy{
				Type:          appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxUnavailable: &mu},
			},
		},
	}
	if _, err := d.c.AppsV1().Deployments(d.ns).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the Deployment: %w", err)
	}
	return nil
}

func (d *deployment) scale(ctx context.Context, replicas int32) error {
	_, err := d.c.AppsV1().Deployments(d.ns).Patch(ctx, workloadName, types.MergePatchType,
		fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas), metav1.PatchOptions{})
	if err != nil {
		return fmt.Errorf("scaling the Deployment: %w", err)
	}
	return nil
}

func (d *deployment) setImage(ctx context.Context, image string) error {
	if _, err := d.c.AppsV1().Deployments(d.ns).Patch(ctx, workloadName, types.JSONPatchType, imagePatch(image), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("changing the Deployment's image: %w", err)
	}
	return nil
}

func (d *deployment) done(ctx context.Context, n int32) (bool, string, error) {
	o, err := d.c.AppsV1().Deployments(d.ns).Get(ctx, workloadName, metav1.GetOptions{})
	if err != nil {
		return false, "", fmt.Errorf("reading the Deployment: %w", err)
	}
	s := o.Status
	desc := fmt.Sprintf("replicas=%d updated=%d ready=%d available=%d", s.Replicas, s.UpdatedReplicas, s.ReadyReplicas, s.AvailableReplicas)
	ok := s.ObservedGeneration >= o.Generation && s.Replicas == n && s.UpdatedReplicas == n &&
		s.ReadyReplicas == n && s.AvailableReplicas == n
	return ok, desc, nil
}

func (d *deployment) delete(ctx context.Context) error {
	bg := metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)}
	if err := d.c.AppsV1().Deployments(d.ns).Delete(ctx, workloadName, bg); err != nil {
		return fmt.Errorf("deleting the Deployment: %w", err)
	}
	if err := d.c.AppsV1().ReplicaSets(d.ns).DeleteCollection(ctx, bg, metav1.ListOptions{}); err != nil {
		return fmt.Errorf("deleting the ReplicaSets: %w", err)
	}
	return nil
}

func (d *deployment) namespace() string { return d.ns }

type cloneSet struct {
	ns       string
	c        kruiseclient.Interface
	strategy v1alpha1.CloneSetUpdateStrategyType
}

func (c *cloneSet) create(ctx context.Context) error {
	obj := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: workloadName},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](0),
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{podLabel: workloadName}},
			Template: podTemplate(),
			UpdateStrategy: v1alpha1.CloneSetUpdateStrategy{
				Type:           c.strategy,
				MaxUnavailable: ptr.To(intstr.FromString(maxUnavailableAll)),
			},
		},
	}
	if _, err := c.c.AppsV1alpha1().CloneSets(c.ns).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the CloneSet: %w", err)
	}
	return nil
}

func (c *cloneSet) scale(ctx context.Context, replicas int32) error {
	_, err := c.c.AppsV1alpha1().CloneSets(c.ns).Patch(ctx, workloadName, types.MergePatchType,
		fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas), metav1.PatchOptions{})
	if err != nil {
		return fmt.Errorf("scaling the CloneSet: %w", err)
	}
	return nil
}

func (c *cloneSet) setImage(ctx context.Context, image string) error {
	if _, err := c.c.AppsV1alpha1().CloneSets(c.ns).Patch(ctx, workloadName, types.JSONPatchType, imagePatch(image), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("changing the CloneSet's image: %w", err)
	}
	return nil
}

func (c *cloneSet) done(ctx context.Context, n int32) (bool, string, error) {
	o, err := c.c.AppsV1alpha1().CloneSets(c.ns).Get(ctx, workloadName, metav1.GetOptions{})
	if err != nil {
		return false, "", fmt.Errorf("reading the CloneSet: %w", err)
	}
	s := o.Status
	desc := fmt.Sprintf("replicas=%d updated=%d updatedReady=%d ready=%d", s.Replicas, s.UpdatedReplicas, s.UpdatedReadyReplicas, s.ReadyReplicas)
	ok := s.ObservedGeneration >= o.Generation && s.Replicas == n && s.UpdatedReplicas == n &&
		s.UpdatedReadyReplicas == n && s.ReadyReplicas == n
	return ok, desc, nil
}

func (c *cloneSet) delete(ctx context.Context) error {
	err := c.c.AppsV1alpha1().CloneSets(c.ns).Delete(ctx, workloadName, metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)})
	if err != nil {
		return fmt.Errorf("deleting the CloneSet: %w", err)
	}
	return nil
}

func (c *cloneSet) namespace() string { return c.ns }
