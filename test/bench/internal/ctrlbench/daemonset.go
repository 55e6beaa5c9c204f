package ctrlbench

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
)

// The daemon workloads compared: kube's DaemonSet (RollingUpdate) against the Advanced
// DaemonSet updating in place and recreating. All three roll with the same
// maxUnavailable (maxUnavailableAll) and no surge, so each may have as many nodes
// without an available pod at a time.
const (
	KubeDaemonSet     = "DaemonSet"
	DaemonSetInPlace  = "Advanced DaemonSet InPlaceIfPossible"
	DaemonSetRecreate = "Advanced DaemonSet Standard"
	daemonSetNoSurge  = 0
)

// DaemonSetMaxUnavailable is every daemon set's maxUnavailable, for the reports.
const DaemonSetMaxUnavailable = maxUnavailableAll

// DaemonSetKinds are the daemon workloads in the order the benchmark runs them.
var DaemonSetKinds = []string{KubeDaemonSet, DaemonSetInPlace, DaemonSetRecreate}

func newDaemonSet(kind, ns string, kube kubernetes.Interface, kruise kruiseclient.Interface) workload {
	if kind == KubeDaemonSet {
		return &kubeDaemonSet{ns: ns, c: kube}
	}
	t := v1beta1.InplaceRollingUpdateType
	if kind == DaemonSetRecreate {
		t = v1beta1.StandardRollingUpdateType
	}
	return &advancedDaemonSet{ns: ns, c: kruise, rollingType: t}
}

// daemonSetStatus is what done reads of either kind's status: the same fields.
type daemonSetStatus struct {
	observed, generation                                int64
	desired, current, updated, ready, available, missed int32
}

// done: every one of n nodes runs one pod of the latest revision, ready and available.
func (s daemonSetStatus) done(n int32) (bool, string) {
	desc := fmt.Sprintf("desired=%d current=%d updated=%d ready=%d available=%d misscheduled=%d",
		s.desired, s.current, s.updated, s.ready, s.available, s.missed)
	ok := s.observed >= s.generation && s.desired == n && s.current == n && s.updated == n &&
		s.ready == n && s.available == n && s.missed == 0
	return ok, desc
}

type kubeDaemonSet struct {
	ns string
	c  kubernetes.Interface
}

func (d *kubeDaemonSet) create(ctx context.Context) error {
	obj := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: workloadName},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{podLabel: workloadName}},
			Template: podTemplate(),
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{
				Type: appsv1.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDaemonSet{
					MaxUnavailable: ptr.To(intstr.FromString(maxUnavailableAll)),
					MaxSurge:       ptr.To(intstr.FromInt32(daemonSetNoSurge)),
				},
			},
		},
	}
	if _, err := d.c.AppsV1().DaemonSets(d.ns).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the DaemonSet: %w", err)
	}
	return nil
}

func (d *kubeDaemonSet) setImage(ctx context.Context, image string) error {
	if _, err := d.c.AppsV1().DaemonSets(d.ns).Patch(ctx, workloadName, types.JSONPatchType, imagePatch(image), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("changing the DaemonSet's image: %w", err)
	}
	return nil
}

func (d *kubeDaemonSet) done(ctx context.Context, n int32) (bool, string, error) {
	o, err := d.c.AppsV1().DaemonSets(d.ns).Get(ctx, workloadName, metav1.GetOptions{})
	if err != nil {
		return false, "", fmt.Errorf("reading the DaemonSet: %w", err)
	}
	s := o.Status
	ok, desc := daemonSetStatus{s.ObservedGeneration, o.Generation, s.DesiredNumberScheduled, s.CurrentNumberScheduled,
		s.UpdatedNumberScheduled, s.NumberReady, s.NumberAvailable, s.NumberMisscheduled}.done(n)
	return ok, desc, nil
}

func (d *kubeDaemonSet) delete(ctx context.Context) error {
	bg := metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)}
	if err := d.c.AppsV1().DaemonSets(d.ns).Delete(ctx, workloadName, bg); err != nil {
		return fmt.Errorf("deleting the DaemonSet: %w", err)
	}
	return nil
}

func (d *kubeDaemonSet) namespace() string { return d.ns }

type advancedDaemonSet struct {
	ns          string
	c           kruiseclient.Interface
	rollingType v1beta1.RollingUpdateType
}

func (d *advancedDaemonSet) create(ctx context.Context) error {
	obj := &v1beta1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: workloadName},
		Spec: v1beta1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{podLabel: workloadName}},
			Template: podTemplate(),
			UpdateStrategy: v1beta1.DaemonSetUpdateStrategy{
				Type: v1beta1.RollingUpdateDaemonSetStrategyType,
				RollingUpdate: &v1beta1.RollingUpdateDaemonSet{
					Type:           d.rollingType,
					MaxUnavailable: ptr.To(intstr.FromString(maxUnavailableAll)),
					MaxSurge:       ptr.To(intstr.FromInt32(daemonSetNoSurge)),
				},
			},
		},
	}
	if _, err := d.c.AppsV1beta1().DaemonSets(d.ns).Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("creating the Advanced DaemonSet: %w", err)
	}
	return nil
}

func (d *advancedDaemonSet) setImage(ctx context.Context, image string) error {
	if _, err := d.c.AppsV1beta1().DaemonSets(d.ns).Patch(ctx, workloadName, types.JSONPatchType, imagePatch(image), metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("changing the Advanced DaemonSet's image: %w", err)
	}
	return nil
}

func (d *advancedDaemonSet) done(ctx context.Context, n int32) (bool, string, error) {
	o, err := d.c.AppsV1beta1().DaemonSets(d.ns).Get(ctx, workloadName, metav1.GetOptions{})
	if err != nil {
		return false, "", fmt.Errorf("reading the Advanced DaemonSet: %w", err)
	}
	s := o.Status
	ok, desc := daemonSetStatus{s.ObservedGeneration, o.Generation, s.DesiredNumberScheduled, s.CurrentNumberScheduled,
		s.UpdatedNumberScheduled, s.NumberReady, s.NumberAvailable, s.NumberMisscheduled}.done(n)
	return ok, desc, nil
}

func (d *advancedDaemonSet) delete(ctx context.Context) error {
	bg := metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)}
	if err := d.c.AppsV1beta1().DaemonSets(d.ns).Delete(ctx, workloadName, bg); err != nil {
		return fmt.Errorf("deleting the Advanced DaemonSet: %w", err)
	}
	return nil
}

func (d *advancedDaemonSet) namespace() string { return d.ns }
