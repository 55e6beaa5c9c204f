package statefulset

import (
	"context"
	"slices"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func withClaimTemplate(policy *v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy) func(*v1beta1.StatefulSet) {
	return func(s *v1beta1.StatefulSet) {
		s.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{{
			ObjectMeta: metav1.ObjectMeta{Name: "data"},
			Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
			},
		}}
		s.Spec.PersistentVolumeClaimRetentionPolicy = policy
	}
}

// OrderedReady: one pod per sync, its claim first, the next only once it is ready; a
// sync on a cache that has not seen the creation yet does nothing.
func TestSyncOrderedReadyCreatesClaimThenPod(t *testing.T) {
	h := newHarness(t, webSet(2, withClaimTemplate(&v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy{
		WhenDeleted: v1beta1.DeletePersistentVolumeClaimRetentionPolicyType,
	})))
	got := h.sync()
	want := []string{"create controllerrevisions web-", "create persistentvolumeclaims data-web-0", "create pods web-0", "update statefulsets/status web"}
	if len(got) != 4 || hasPrefix(got, want[0]) != 1 || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Fatalf("first sync wrote %v, want %v", got, want)
	}
	pod := h.pod("web-0")
	if pod.Spec.Hostname != "web-0" || pod.Spec.Subdomain != "nginx" || pod.Labels[appsv1.StatefulSetPodNameLabel] != "web-0" ||
		pod.Labels[appsv1.PodIndexLabel] != "0" || pod.Labels[pub.ControllerRevisionHashLabelKey] == "" {
		t.Errorf("pod identity: hostname %q subdomain %q labels %v", pod.Spec.Hostname, pod.Spec.Subdomain, pod.Labels)
	}
	if ref := metav1.GetControllerOf(pod); ref == nil || ref.APIVersion != "apps.kruise.io/v1beta1" || ref.UID != "set-uid" {
		t.Errorf("pod owner %+v", ref)
	}
	if v := pod.Spec.Volumes; len(v) != 1 || v[0].PersistentVolumeClaim == nil || v[0].PersistentVolumeClaim.ClaimName != "data-web-0" {
		t.Errorf("pod volumes %+v", v)
	}
	claim, err := h.kube.CoreV1().PersistentVolumeClaims("ns").Get(context.Background(), "data-web-0", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if claim.Labels["app"] != "web" || len(claim.OwnerReferences) != 1 || claim.OwnerReferences[0].UID != "set-uid" {
		t.Errorf("claim labels %v owners %+v: whenDeleted Delete makes the set its owner", claim.Labels, claim.OwnerReferences)
	}

	// The cache has not seen web-0: nothing may happen, whatever else the cache says.
	if got := h.sync(); len(got) != 0 {
		t.Fatalf("sync on a stale cache wrote %v", got)
	}
	h.c.pods.Scale.Observe("ns/web", "create", "web-0") // the informer's add event
	h.refresh()
	if got := h.sync(); hasPrefix(got, "create pods") != 0 {
		t.Fatalf("created %v while web-0 is not ready", got)
	}
	h.kubelet("web-0")
	h.refresh()
	if got := h.sync(); !slices.Contains(got, "create pods web-1") {
		t.Fatalf("wrote %v once web-0 is ready, want web-1 created", got)
	}
}

// whenScaled Delete: the claim of a condemned pod gets the pod as its owner before
// the pod is deleted (the garbage collector then deletes the claim); kept claims of
// kept pods lose nothing.
func TestSyncScaleDownHandsClaimsToPods(t *testing.T) {
	h := newHarness(t, webSet(3, func(s *v1beta1.StatefulSet) {
		withClaimTemplate(&v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenScaled: v1beta1.DeletePersistentVolumeClaimRetentionPolicyType,
		})(s)
		s.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
	}))
	h.sync()
	for _, n := range []string{"web-0", "web-1", "web-2"} {
		h.c.pods.Scale.Observe("ns/web", "create", n)
	}
	h.kubelet("web-0", "web-1", "web-2")
	h.refresh()
	if got := h.sync(); hasPrefix(got, "create") != 0 || hasPrefix(got, "delete") != 0 {
		t.Fatalf("steady state wrote %v", got)
	}
	set, _ := h.kruise.AppsV1beta1().StatefulSets("ns").Get(context.Background(), "web", metav1.GetOptions{})
	set.Spec.Replicas = ptr.To[int32](1)
	if _, err := h.kruise.AppsV1beta1().StatefulSets("ns").Update(context.Background(), set, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.refresh()
	got := h.sync()
	for _, n := range []string{"1", "2"} {
		patch := slices.Index(got, "patch persistentvolumeclaims data-web-"+n)
		del := slices.Index(got, "delete pods web-"+n)
		if patch < 0 || del < 0 || patch > del {
			t.Fatalf("wrote %v: want data-web-%s handed to its pod before web-%s is deleted", got, n, n)
		}
		claim, _ := h.kube.CoreV1().PersistentVolumeClaims("ns").Get(context.Background(), "data-web-"+n, metav1.GetOptions{})
		if len(claim.OwnerReferences) != 1 || claim.OwnerReferences[0].Kind != "Pod" || claim.OwnerReferences[0].Name != "web-"+n {
			t.Errorf("data-web-%s owners %+v, want pod web-%s", n, claim.OwnerReferences, n)
		}
	}
	if slices.Contains(got, "patch persistentvolumeclaims data-web-0") {
		t.Errorf("wrote %v: data-web-0 stays as it is", got)
	}
}

// An in-place update is one pod patch (image, revision label, state); no delete.
func TestSyncInPlaceUpdateIsOnePatch(t *testing.T) {
	h := newHarness(t, webSet(2, func(s *v1beta1.StatefulSet) {
		s.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
		s.Spec.UpdateStrategy.RollingUpdate = &v1beta1.RollingUpdateStatefulSetStrategy{
			PodUpdatePolicy: v1beta1.InPlaceIfPossiblePodUpdateStrategyType,
			MaxUnavailable:  ptr.To(intstr.FromInt32(2)),
		}
		s.Spec.Template.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: pub.InPlaceUpdateReady}}
	}))
	h.sync()
	h.c.pods.Scale.Observe("ns/web", "create", "web-0")
	h.c.pods.Scale.Observe("ns/web", "create", "web-1")
	h.kubelet("web-0", "web-1")
	h.refresh()
	h.sync()
	uid := h.pod("web-1").UID
	set, _ := h.kruise.AppsV1beta1().StatefulSets("ns").Get(context.Background(), "web", metav1.GetOptions{})
	set.Spec.Template.Spec.Containers[0].Image = "nginx:1.26"
	set.Generation++
	if _, err := h.kruise.AppsV1beta1().StatefulSets("ns").Update(context.Background(), set, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.refresh()
	got := h.sync()
	if hasPrefix(got, "patch pods web-") != 2 || hasPrefix(got, "delete") != 0 || hasPrefix(got, "create pods") != 0 {
		t.Fatalf("wrote %v, want one patch per pod and nothing else on pods", got)
	}
	p := h.pod("web-1")
	if p.UID != uid || p.Spec.Containers[0].Image != "nginx:1.26" || p.Annotations[pub.InPlaceUpdateStateKey] == "" {
		t.Errorf("web-1: image %s, state %q", p.Spec.Containers[0].Image, p.Annotations[pub.InPlaceUpdateStateKey])
	}
	status, _ := h.kruise.AppsV1beta1().StatefulSets("ns").Get(context.Background(), "web", metav1.GetOptions{})
	if p.Labels[pub.ControllerRevisionHashLabelKey] != status.Status.UpdateRevision {
		t.Errorf("web-1 at revision %s, update revision %s", p.Labels[pub.ControllerRevisionHashLabelKey], status.Status.UpdateRevision)
	}
}

// A pod of another owner at one of the set's ordinals is never replaced; an orphan
// that matches the selector is adopted instead of recreated (OnDelete here, so that
// the rollout leaves the adopted pod, which runs no revision of the set, alone).
func TestSyncAdoptsOrphansAndReportsConflicts(t *testing.T) {
	orphan := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "ns", UID: "orphan", Labels: map[string]string{"app": "web"}}}
	foreign := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "ns", UID: "foreign", Labels: map[string]string{"app": "web"},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs", Controller: ptr.To(true)}}}}
	h := newHarness(t, webSet(2, func(s *v1beta1.StatefulSet) {
		s.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
		s.Spec.UpdateStrategy.Type = appsv1.OnDeleteStatefulSetStrategyType
	}), orphan, foreign)
	got := h.sync()
	if hasPrefix(got, "create pods") != 0 || hasPrefix(got, "delete pods") != 0 || !slices.Contains(got, "patch pods web-0") || slices.Contains(got, "patch pods web-1") {
		t.Fatalf("wrote %v, want web-0 adopted and web-1 left alone", got)
	}
	if ref := metav1.GetControllerOf(h.pod("web-0")); ref == nil || ref.UID != "set-uid" {
		t.Errorf("web-0 owner %+v", ref)
	}
	set, _ := h.kruise.AppsV1beta1().StatefulSets("ns").Get(context.Background(), "web", metav1.GetOptions{})
	if c := findCondition(set.Status.Conditions, ConditionFailedCreatePod); c == nil || c.Status != corev1.ConditionTrue {
		t.Errorf("conditions %+v, want FailedCreatePod", set.Status.Conditions)
	}
}

func findCondition(conds []appsv1.StatefulSetCondition, t appsv1.StatefulSetConditionType) *appsv1.StatefulSetCondition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}

// A failed pod is deleted, to be recreated at the same ordinal.
func TestSyncRecreatesFailedPods(t *testing.T) {
	h := newHarness(t, webSet(1, nil))
	h.sync()
	h.c.pods.Scale.Observe("ns/web", "create", "web-0")
	p := h.pod("web-0")
	p.Status.Phase = corev1.PodFailed
	if _, err := h.kube.CoreV1().Pods("ns").UpdateStatus(context.Background(), p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.refresh()
	if got := h.sync(); !slices.Contains(got, "delete pods web-0") {
		t.Fatalf("wrote %v, want the failed web-0 deleted", got)
	}
}

// Status is written once per sync and not at all when nothing changed.
func TestSyncWritesStatusOnlyOnChange(t *testing.T) {
	h := newHarness(t, webSet(1, nil))
	h.sync()
	h.c.pods.Scale.Observe("ns/web", "create", "web-0")
	h.kubelet("web-0")
	h.refresh()
	if got := h.sync(); hasPrefix(got, "update statefulsets/status") != 1 {
		t.Fatalf("wrote %v, want one status write", got)
	}
	h.refresh()
	if got := h.sync(); len(got) != 0 {
		t.Fatalf("steady state wrote %v", got)
	}
	set, _ := h.kruise.AppsV1beta1().StatefulSets("ns").Get(context.Background(), "web", metav1.GetOptions{})
	s := set.Status
	if s.Replicas != 1 || s.ReadyReplicas != 1 || s.AvailableReplicas != 1 || s.UpdatedReplicas != 1 || s.CurrentReplicas != 1 ||
		s.UpdatedReadyReplicas != 1 || s.CurrentRevision != s.UpdateRevision || s.ObservedGeneration != 1 || s.LabelSelector != "app=web" {
		t.Errorf("status %+v", s)
	}
}

// A preDelete hook holds a condemned pod in PreparingDelete until its owner removes
// the hook's label; only then is it deleted.
func TestSyncPreDeleteHookHoldsScaleDown(t *testing.T) {
	h := newHarness(t, webSet(2, func(s *v1beta1.StatefulSet) {
		s.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
		s.Spec.Lifecycle = &pub.Lifecycle{PreDelete: &pub.LifecycleHook{LabelsHandler: map[string]string{"hold": "true"}}}
		s.Spec.Template.Labels["hold"] = "true"
	}))
	h.sync()
	h.c.pods.Scale.Observe("ns/web", "create", "web-0")
	h.c.pods.Scale.Observe("ns/web", "create", "web-1")
	h.kubelet("web-0", "web-1")
	set, _ := h.kruise.AppsV1beta1().StatefulSets("ns").Get(context.Background(), "web", metav1.GetOptions{})
	set.Spec.Replicas = ptr.To[int32](1)
	if _, err := h.kruise.AppsV1beta1().StatefulSets("ns").Update(context.Background(), set, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.refresh()
	if got := h.sync(); slices.Contains(got, "delete pods web-1") || !slices.Contains(got, "patch pods web-1") {
		t.Fatalf("wrote %v, want web-1 moved to PreparingDelete, not deleted", got)
	}
	p := h.pod("web-1")
	if p.Labels[pub.LifecycleStateKey] != string(pub.LifecycleStatePreparingDelete) {
		t.Fatalf("web-1 lifecycle state %q", p.Labels[pub.LifecycleStateKey])
	}
	h.refresh()
	if got := h.sync(); slices.Contains(got, "delete pods web-1") {
		t.Fatalf("wrote %v while the hook holds web-1", got)
	}
	delete(p.Labels, "hold") // the hook's owner lets go
	if _, err := h.kube.CoreV1().Pods("ns").Update(context.Background(), p, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	h.refresh()
	if got := h.sync(); !slices.Contains(got, "delete pods web-1") {
		t.Fatalf("wrote %v once the hook let go, want web-1 deleted", got)
	}
}

// ordinals.start and reserveOrdinals name the pods; a pod at an ordinal the set no
// longer wants is deleted.
func TestSyncOrdinalsStartAndReserved(t *testing.T) {
	stray := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "ns", UID: "stray", Labels: map[string]string{"app": "web"},
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps.kruise.io/v1beta1", Kind: "StatefulSet", Name: "web", UID: "set-uid", Controller: ptr.To(true)}}}}
	h := newHarness(t, webSet(3, func(s *v1beta1.StatefulSet) {
		s.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
		s.Spec.Ordinals = &v1beta1.StatefulSetOrdinals{Start: 2}
		s.Spec.ReserveOrdinals = []intstr.IntOrString{intstr.FromInt32(3), intstr.FromString("5-6")}
	}), stray)
	got := h.sync()
	for _, want := range []string{"create pods web-2", "create pods web-4", "create pods web-7", "delete pods web-0"} {
		if !slices.Contains(got, want) {
			t.Errorf("wrote %v, want %q", got, want)
		}
	}
	if hasPrefix(got, "create pods") != 3 {
		t.Errorf("wrote %v, want three pods", got)
	}
	if idx := h.pod("web-7").Labels[appsv1.PodIndexLabel]; idx != "7" {
		t.Errorf("web-7 pod-index label %q", idx)
	}
}

// OnDelete and paused keep old pods; both still scale.
func TestSyncOnDeleteAndPausedOnlyScale(t *testing.T) {
	for name, edit := range map[string]func(*v1beta1.StatefulSet){
		"OnDelete": func(s *v1beta1.StatefulSet) {
			s.Spec.UpdateStrategy = v1beta1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
		},
		"paused": func(s *v1beta1.StatefulSet) {
			s.Spec.UpdateStrategy.RollingUpdate = &v1beta1.RollingUpdateStatefulSetStrategy{Paused: true}
		},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t, webSet(1, func(s *v1beta1.StatefulSet) {
				s.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
				edit(s)
			}))
			h.sync()
			h.c.pods.Scale.Observe("ns/web", "create", "web-0")
			h.kubelet("web-0")
			set, _ := h.kruise.AppsV1beta1().StatefulSets("ns").Get(context.Background(), "web", metav1.GetOptions{})
			set.Spec.Template.Spec.Containers[0].Image = "nginx:1.26"
			set.Spec.Replicas = ptr.To[int32](2)
			if _, err := h.kruise.AppsV1beta1().StatefulSets("ns").Update(context.Background(), set, metav1.UpdateOptions{}); err != nil {
				t.Fatal(err)
			}
			h.refresh()
			got := h.sync()
			if !slices.Contains(got, "create pods web-1") || slices.Contains(got, "delete pods web-0") || slices.Contains(got, "patch pods web-0") {
				t.Fatalf("wrote %v, want web-1 created and web-0 left alone", got)
			}
			if img := h.pod("web-1").Spec.Containers[0].Image; img != "nginx:1.26" {
				t.Errorf("new pod runs %s, want the update revision", img)
			}
		})
	}
}
