package cloneset

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// dataMarker is an annotation the test puts on a claim: it stands for the data the
// application wrote into the volume.
const dataMarker = "example.com/data-marker"

// statefulCloneSet is a CloneSet of 2 pods with a claim each (storage class class).
func statefulCloneSet(name, class string, disableReuse bool) *v1alpha1.CloneSet {
	labels := map[string]string{"app": name}
	return &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](2),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx",
					VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}}}},
			},
			VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{
				ObjectMeta: metav1.ObjectMeta{Name: "data"},
				Spec: corev1.PersistentVolumeClaimSpec{
					AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
					StorageClassName: ptr.To(class),
					Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
				},
			}},
			ScaleStrategy: v1alpha1.CloneSetScaleStrategy{DisablePVCReuse: disableReuse},
		},
	}
}

// createVolumes makes n hostPath PersistentVolumes of storage class class for the
// test's claims to bind to (the local stack has no provisioner, and kube-scheduler
// does not schedule a pod whose claims are unbound).
func createVolumes(t *testing.T, class string, n int) {
	t.Helper()
	createSizedVolumes(t, class, class, "1Gi", n)
}

// createSizedVolumes makes n hostPath PersistentVolumes of storage class class and
// capacity size, named prefix-<i>.
func createSizedVolumes(t *testing.T, prefix, class, size string, n int) {
	t.Helper()
	c := framework.Get(t)
	for i := range n {
		pv := &corev1.PersistentVolume{
			ObjectMeta: metav1.ObjectMeta{Name: prefix + "-" + strconv.Itoa(i)},
			Spec: corev1.PersistentVolumeSpec{
				Capacity:                      corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)},
				AccessModes:                   []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				PersistentVolumeReclaimPolicy: corev1.PersistentVolumeReclaimRetain,
				StorageClassName:              class,
				PersistentVolumeSource: corev1.PersistentVolumeSource{
					HostPath: &corev1.HostPathVolumeSource{Path: "/tmp/" + prefix + "-" + strconv.Itoa(i)},
				},
			},
		}
		if _, err := c.Client.CoreV1().PersistentVolumes().Create(context.Background(), pv, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		name := pv.Name
		t.Cleanup(func() {
			_ = c.Client.CoreV1().PersistentVolumes().Delete(context.Background(), name, metav1.DeleteOptions{})
		})
	}
}

// markClaim puts the data marker on a pod's claim and returns the claim's UID.
func markClaim(t *testing.T, ns, claim string) types.UID {
	t.Helper()
	got, err := framework.Get(t).Client.CoreV1().PersistentVolumeClaims(ns).Patch(context.Background(), claim, types.MergePatchType,
		[]byte(`{"metadata":{"annotations":{"`+dataMarker+`":"written-by-`+claim+`"}}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return got.UID
}

// waitReplacedWithClaim waits until a pod named name, not the one of UID old, runs
// ready with its volume data on the claim of UID claimUID, still marked.
func waitReplacedWithClaim(t *testing.T, ns, name string, old, claimUID types.UID) {
	t.Helper()
	c := framework.Get(t)
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		pod, err := c.Client.CoreV1().Pods(ns).Get(context.Background(), name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return pod.UID != old && pod.DeletionTimestamp == nil && isPodReady(pod), nil
	})
	pod, err := c.Client.CoreV1().Pods(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(pod.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == "data" })
	if i < 0 || pod.Spec.Volumes[i].PersistentVolumeClaim == nil || pod.Spec.Volumes[i].PersistentVolumeClaim.ClaimName != "data-"+name {
		t.Fatalf("replacement %s does not mount claim data-%s: %+v", name, name, pod.Spec.Volumes)
	}
	claim, err := c.Client.CoreV1().PersistentVolumeClaims(ns).Get(context.Background(), "data-"+name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if claim.UID != claimUID || claim.DeletionTimestamp != nil || claim.Annotations[dataMarker] != "written-by-data-"+name {
		t.Fatalf("claim data-%s: uid %s (want %s), deleting %v, marker %q: not the claim the old pod wrote",
			name, claim.UID, claimUID, claim.DeletionTimestamp != nil, claim.Annotations[dataMarker])
	}
}

// PVC reuse (v1alpha1's default): a pod of a stateful CloneSet deleted by hand, and a
// pod that failed, come back under the same instance id with the same claim and its
// data; nothing else is created.
func TestPVCReuseAfterPodDeletedOrFailed(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	class := "reuse-" + ns
	createVolumes(t, class, 3)
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Create(ctx, statefulCloneSet("db", class, false), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := waitStatus(t, ns, "db", 3*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 2 && s.ReadyReplicas == 2
	})
	pods := podsOf(t, ns, cs)
	if len(pods) != 2 {
		t.Fatalf("%d pods, want 2", len(pods))
	}

	// Deleted by hand.
	victim := pods[0]
	claimUID := markClaim(t, ns, "data-"+victim.Name)
	if err := c.Client.CoreV1().Pods(ns).Delete(ctx, victim.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitReplacedWithClaim(t, ns, victim.Name, victim.UID, claimUID)

	// Failed (as a kubelet's eviction leaves a pod).
	failed, err := c.Client.CoreV1().Pods(ns).Get(ctx, pods[1].Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	claimUID = markClaim(t, ns, "data-"+failed.Name)
	failed.Status.Phase = corev1.PodFailed
	failed.Status.Reason = "Evicted"
	if _, err := c.Client.CoreV1().Pods(ns).UpdateStatus(ctx, failed, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitReplacedWithClaim(t, ns, failed.Name, failed.UID, claimUID)

	waitStatus(t, ns, "db", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 2 && s.ReadyReplicas == 2
	})
	if got := liveClaims(t, ns); len(got) != 2 {
		t.Fatalf("claims %v, want the 2 claims the pods started with", got)
	}
}

// Without PVC reuse (disablePVCReuse: true; v1beta1's default), the claim of a pod
// deleted by hand is deleted and its replacement gets a new instance id and claim.
func TestPVCReuseOffDeletesOrphanClaim(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	ctx := context.Background()
	class := "noreuse-" + ns
	createVolumes(t, class, 3)
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Create(ctx, statefulCloneSet("db", class, true), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cs := waitStatus(t, ns, "db", 3*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 2 && s.ReadyReplicas == 2
	})
	victim := podsOf(t, ns, cs)[0]
	orphan := "data-" + victim.Name
	if err := c.Client.CoreV1().Pods(ns).Delete(ctx, victim.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		_, err := c.Client.CoreV1().PersistentVolumeClaims(ns).Get(ctx, orphan, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	cs = waitStatus(t, ns, "db", 2*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 2 && s.ReadyReplicas == 2
	})
	var want []string
	for _, p := range podsOf(t, ns, cs) {
		if p.Name == victim.Name {
			t.Fatalf("pod %s came back although PVC reuse is off", p.Name)
		}
		want = append(want, "data-"+p.Name)
	}
	slices.Sort(want)
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		return slices.Equal(liveClaims(t, ns), want), nil
	})
}

// liveClaims lists the namespace's claims not being deleted, sorted.
func liveClaims(t *testing.T, ns string) []string {
	t.Helper()
	list, err := framework.Get(t).Client.CoreV1().PersistentVolumeClaims(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, claim := range list.Items {
		if claim.DeletionTimestamp == nil {
			out = append(out, claim.Name)
		}
	}
	slices.Sort(out)
	return out
}
