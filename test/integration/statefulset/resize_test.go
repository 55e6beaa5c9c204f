package statefulset

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// createClass makes a StorageClass for statically provisioned volumes (the local stack
// has no provisioner), expandable or not.
func createClass(t *testing.T, name string, expandable bool) {
	t.Helper()
	c := framework.Get(t)
	sc := &storagev1.StorageClass{
		ObjectMeta:           metav1.ObjectMeta{Name: name},
		Provisioner:          "kubernetes.io/no-provisioner",
		AllowVolumeExpansion: ptr.To(expandable),
		VolumeBindingMode:    ptr.To(storagev1.VolumeBindingImmediate),
	}
	if _, err := c.Client.StorageV1().StorageClasses().Create(context.Background(), sc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = c.Client.StorageV1().StorageClasses().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
}

// sizedSet is a Parallel set of replicas pods with one claim template data of size on
// class, whose changes roll out to the claims (volumeClaimUpdateStrategy
// OnPodRollingUpdate), maxUnavailable 1.
func sizedSet(name, class string, replicas int32, size string) *v1beta1.StatefulSet {
	one := intstr.FromInt32(1)
	return &v1beta1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1beta1.StatefulSetSpec{
			Replicas:            ptr.To(replicas),
			PodManagementPolicy: appsv1.ParallelPodManagement,
			Selector:            &metav1.LabelSelector{MatchLabels: map[string]string{"app": name}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
			},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{Name: "data"},
				Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					StorageClassName: ptr.To(class),
					Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)}},
				},
			}},
			VolumeClaimUpdateStrategy: v1beta1.VolumeClaimUpdateStrategy{Type: v1beta1.OnPodRollingUpdateVolumeClaimUpdateStrategyType},
			UpdateStrategy: v1beta1.StatefulSetUpdateStrategy{
				Type:          appsv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &v1beta1.RollingUpdateStatefulSetStrategy{MaxUnavailable: &one},
			},
		},
	}
}

func resizeTemplate(t *testing.T, ns, name, size string) {
	t.Helper()
	if _, _, err := framework.Get(t).Kubectl(t, "patch", "statefulsets.apps.kruise.io", name, "-n", ns, "--type=json", "-p",
		fmt.Sprintf(`[{"op":"replace","path":"/spec/volumeClaimTemplates/0/spec/resources/requests/storage","value":%q}]`, size)); err != nil {
		t.Fatal(err)
	}
}

func claimsOf(t *testing.T, ns string) []corev1.PersistentVolumeClaim {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().PersistentVolumeClaims(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return list.Items
}

func storage(list corev1.ResourceList) resource.Quantity { return list[corev1.ResourceStorage] }

// finishResize plays the volume's resizer and kubelet, which the local stack lacks (kube's
// expand controller waits for an external resizer for these volumes): the volume grows
// to the claim's request, then the claim's status.capacity shows it.
func finishResize(t *testing.T, claim *corev1.PersistentVolumeClaim) {
	t.Helper()
	c := framework.Get(t)
	size := storage(claim.Spec.Resources.Requests)
	patch := fmt.Appendf(nil, `{"spec":{"capacity":{"storage":%q}}}`, size.String())
	if _, err := c.Client.CoreV1().PersistentVolumes().Patch(context.Background(), claim.Spec.VolumeName, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	patch = fmt.Appendf(nil, `{"status":{"capacity":{"storage":%q}}}`, size.String())
	if _, err := c.Client.CoreV1().PersistentVolumeClaims(claim.Namespace).Patch(context.Background(), claim.Name, types.MergePatchType, patch,
		metav1.PatchOptions{}, "status"); err != nil {
		t.Fatal(err)
	}
}

// volumeClaimUpdateStrategy OnPodRollingUpdate: growing a claim template grows every
// pod's claim, one pod at a time under maxUnavailable 1 (the next claim is patched
// only once the previous one has its size), without restarting pods whose template
// did not change; the set's status.volumeClaims counts the claims at the new size.
// A StorageClass without allowVolumeExpansion, or a smaller template, is reported
// in the FailedUpdatePVC condition and leaves the claims as they are.
func TestVolumeClaimResizeOnRollingUpdate(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	class := "grow-" + ns
	createClass(t, class, true)
	createVolumes(t, class, 3)
	if _, err := kruise(t).AppsV1beta1().StatefulSets(ns).Create(ctx, sizedSet("vol", class, 3, "1Gi"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, ns, "vol", 3*time.Minute, settled(3))
	before := livePods(t, ns)

	resizeTemplate(t, ns, "vol", "2Gi")
	want := resource.MustParse("2Gi")
	var order []string
	framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
		claims := claimsOf(t, ns)
		var pending []*corev1.PersistentVolumeClaim
		done := 0
		for i := range claims {
			req, capacity := storage(claims[i].Spec.Resources.Requests), storage(claims[i].Status.Capacity)
			switch {
			case req.Cmp(want) == 0 && capacity.Cmp(want) == 0:
				done++
			case req.Cmp(want) == 0:
				pending = append(pending, &claims[i])
			}
		}
		if len(pending) > 1 {
			t.Fatalf("%d claims resizing at once under maxUnavailable 1", len(pending))
		}
		for _, claim := range pending {
			order = append(order, claim.Name)
			finishResize(t, claim)
		}
		return done == 3, nil
	})
	if want := []string{"data-vol-2", "data-vol-1", "data-vol-0"}; !slices.Equal(order, want) {
		t.Errorf("claims resized in order %v, want %v (the rollout's order)", order, want)
	}
	set := waitStatus(t, ns, "vol", time.Minute, func(s v1beta1.StatefulSetStatus) bool {
		return len(s.VolumeClaims) == 1 && s.VolumeClaims[0].CompatibleReadyReplicas == 3
	})
	if vc := set.Status.VolumeClaims[0]; vc.VolumeClaimName != "data" || vc.CompatibleReplicas != 3 {
		t.Errorf("status.volumeClaims = %+v, want data with 3 compatible replicas", set.Status.VolumeClaims)
	}
	for name, p := range livePods(t, ns) {
		if p.UID != before[name].UID {
			t.Errorf("pod %s was recreated: only its claim template changed", name)
		}
	}

	// A smaller template cannot be carried out: said in the condition, claims unchanged.
	resizeTemplate(t, ns, "vol", "1Gi")
	waitCondition(t, ns, "vol", "ShrinkNotSupported")
	for _, claim := range claimsOf(t, ns) {
		if req := storage(claim.Spec.Resources.Requests); req.Cmp(want) != 0 {
			t.Errorf("claim %s asks for %s after a shrink of its template, want it kept at 2Gi", claim.Name, req.String())
		}
	}

	// A StorageClass that does not allow expansion: the claim stays, the condition says why.
	fixed := "fixed-" + ns
	createClass(t, fixed, false)
	createVolumes(t, fixed, 1)
	if _, err := kruise(t).AppsV1beta1().StatefulSets(ns).Create(ctx, sizedSet("fix", fixed, 1, "1Gi"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, ns, "fix", 3*time.Minute, settled(1))
	resizeTemplate(t, ns, "fix", "2Gi")
	waitCondition(t, ns, "fix", "StorageClassNotExpandable")
	claim, err := c.Client.CoreV1().PersistentVolumeClaims(ns).Get(ctx, "data-fix-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if req := storage(claim.Spec.Resources.Requests); req.String() != "1Gi" {
		t.Errorf("claim data-fix-0 asks for %s on a class without expansion, want 1Gi", req.String())
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		return eventReasons(t, ns, "fix")["FailedUpdatePVC"] > 0, nil
	})
}

// waitCondition waits until the set shows FailedUpdatePVC with reason.
func waitCondition(t *testing.T, ns, name, reason string) {
	t.Helper()
	waitStatus(t, ns, name, time.Minute, func(s v1beta1.StatefulSetStatus) bool {
		for _, c := range s.Conditions {
			if c.Type == "FailedUpdatePVC" && c.Status == corev1.ConditionTrue && c.Reason == reason {
				return true
			}
		}
		return false
	})
}
