package manager

import (
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
)

// fullPod is a pod as kube-apiserver stores it after admission: a token volume and its
// mount, the default tolerations, managed fields.
func fullPod(name string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "team-a", Labels: map[string]string{"app": "web", "controller-revision-hash": "web-1"},
			Annotations:     map[string]string{"note": "kept"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web", UID: "u1", Controller: ptr.To(true)}},
			ManagedFields:   []metav1.ManagedFieldsEntry{{Manager: "kube-scheduler"}}},
		Spec: corev1.PodSpec{
			NodeName: "node-1", SchedulerName: "default-scheduler", ServiceAccountName: "default",
			Affinity:        &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{}},
			SecurityContext: &corev1.PodSecurityContext{RunAsUser: ptr.To[int64](1000)},
			Tolerations:     []corev1.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists}},
			Volumes:         []corev1.Volume{{Name: "kube-api-access-x", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{}}}},
			InitContainers:  []corev1.Container{{Name: "init", Image: "busybox", VolumeMounts: []corev1.VolumeMount{{Name: "kube-api-access-x", MountPath: "/var/run"}}}},
			Containers: []corev1.Container{{
				Name: "main", Image: "nginx:1.25", Env: []corev1.EnvVar{{Name: "KRUISE_CONTAINER_PRIORITY", Value: "1"}},
				ReadinessProbe: &corev1.Probe{PeriodSeconds: 5},
				VolumeMounts:   []corev1.VolumeMount{{Name: "kube-api-access-x", MountPath: "/var/run"}},
				VolumeDevices:  []corev1.VolumeDevice{{Name: "raw", DevicePath: "/dev/xvda"}},
			}},
			ReadinessGates: []corev1.PodReadinessGate{{ConditionType: "InPlaceUpdateReady"}},
		},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, HostIP: "10.0.0.1",
			Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "main", Image: "nginx:1.25", ImageID: "sha256:1", Ready: true}}},
	}
}

func TestCacheTransformPod(t *testing.T) {
	want := fullPod("p")
	want.ManagedFields = nil
	want.Spec.Volumes, want.Spec.Tolerations, want.Spec.SecurityContext = nil, nil, nil
	want.Spec.Containers[0].VolumeMounts, want.Spec.Containers[0].VolumeDevices = nil, nil

	transform := cacheTransform()
	for _, tc := range []struct {
		name string
		in   any
		pod  func(any) *corev1.Pod
	}{
		{"pod", fullPod("p"), func(o any) *corev1.Pod { return o.(*corev1.Pod) }},
		{"tombstone", cache.DeletedFinalStateUnknown{Key: "team-a/p", Obj: fullPod("p")}, func(o any) *corev1.Pod {
			return o.(cache.DeletedFinalStateUnknown).Obj.(*corev1.Pod)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := transform(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			// Everything a controller reads is kept: images, env, probes, affinity,
			// init containers' mounts, metadata, status.
			if diff := cmp.Diff(want, tc.pod(out)); diff != "" {
				t.Errorf("cached pod (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCacheTransformSharesRepeatedStrings(t *testing.T) {
	transform := cacheTransform()
	a, _ := transform(fullPod("a"))
	b, _ := transform(fullPod("b"))
	pa, pb := a.(*corev1.Pod), b.(*corev1.Pod)
	same := func(x, y string) bool { return unsafe.StringData(x) == unsafe.StringData(y) }
	for _, tc := range []struct {
		field string
		x, y  string
	}{
		{"namespace", pa.Namespace, pb.Namespace},
		{"owner kind", pa.OwnerReferences[0].Kind, pb.OwnerReferences[0].Kind},
		{"image", pa.Spec.Containers[0].Image, pb.Spec.Containers[0].Image},
		{"node", pa.Spec.NodeName, pb.Spec.NodeName},
		{"condition type", string(pa.Status.Conditions[0].Type), string(pb.Status.Conditions[0].Type)},
	} {
		if tc.x != tc.y || !same(tc.x, tc.y) {
			t.Errorf("%s: %q and %q are not one shared copy", tc.field, tc.x, tc.y)
		}
	}
	for k := range pa.Labels {
		var shared bool
		for k2 := range pb.Labels {
			shared = shared || (k == k2 && same(k, k2))
		}
		if !shared {
			t.Errorf("label key %q not shared", k)
		}
	}
	if same(pa.Name, pb.Name) {
		t.Error("names must not be interned")
	}
}

func TestStringTableLimit(t *testing.T) {
	table := newStringTable(2)
	for _, s := range []string{"a", "b", "c", ""} {
		if got := table.intern(s); got != s {
			t.Errorf("intern(%q) = %q", s, got)
		}
	}
	if len(table.m) != 2 {
		t.Errorf("table holds %d entries, want the limit 2", len(table.m))
	}
	c := string([]byte("c"))
	if got := table.intern(c); unsafe.StringData(got) != unsafe.StringData(c) {
		t.Error("past the limit a string is returned as given")
	}
}
