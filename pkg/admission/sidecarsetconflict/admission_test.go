package sidecarsetconflict

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/install"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

// sidecarSet is a SidecarSet selecting app=<app> with the given sidecars (by name).
func sidecarSet(name, app string, sidecars ...string) *apps.SidecarSet {
	ss := &apps.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: apps.SidecarSetSpec{
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}},
	}}
	for _, s := range sidecars {
		ss.Spec.Containers = append(ss.Spec.Containers, apps.SidecarContainer{
			Container:       corev1.Container{Name: s, Image: "busybox"},
			UpgradeStrategy: apps.SidecarContainerUpgradeStrategy{UpgradeType: apps.SidecarContainerColdUpgrade},
		})
	}
	return ss
}

func emptyDir(name string) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}
}

func hostPath(name, path string) corev1.Volume {
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: path}}}
}

func toV1beta1(t *testing.T, ss *apps.SidecarSet) *v1beta1.SidecarSet {
	t.Helper()
	out := &v1beta1.SidecarSet{}
	if err := scheme.Convert(ss, out, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// newPlugin is a ready plugin that sees existing as the stored SidecarSets and
// namespaces (by name, with their labels).
func newPlugin(t *testing.T, namespaces map[string]map[string]string, existing ...*apps.SidecarSet) *Plugin {
	p := New()
	var stored []*v1beta1.SidecarSet
	for _, ss := range existing {
		stored = append(stored, toV1beta1(t, ss))
	}
	p.sidecarSets = func() ([]*v1beta1.SidecarSet, error) { return stored, nil }
	p.namespaces = func(_ context.Context, name string) (*corev1.Namespace, error) {
		l, ok := namespaces[name]
		if !ok {
			return nil, apierrors.NewNotFound(corev1.Resource("namespaces"), name)
		}
		return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: l}}, nil
	}
	p.SetReadyFunc(func() bool { return true })
	if err := p.ValidateInitialization(); err != nil {
		t.Fatal(err)
	}
	return p
}

func attrs(ss, old *apps.SidecarSet, subresource string) admission.Attributes {
	op := admission.Create
	var oldObj runtime.Object
	if old != nil {
		op, oldObj = admission.Update, old
	}
	return admission.NewAttributesRecord(ss, oldObj, apps.Kind("SidecarSet").WithVersion("v1beta1"), "", ss.Name,
		apps.Resource("sidecarsets").WithVersion("v1beta1"), subresource, op, nil, false, nil)
}

// expectRejected fails unless err is a 422 whose causes are exactly at fields, each
// naming other.
func expectRejected(t *testing.T, err error, other string, fields ...string) {
	t.Helper()
	if len(fields) == 0 {
		if err != nil {
			t.Fatalf("want admitted, got %v", err)
		}
		return
	}
	if !apierrors.IsInvalid(err) {
		t.Fatalf("want 422 Invalid, got %v", err)
	}
	causes := err.(apierrors.APIStatus).Status().Details.Causes
	if len(causes) != len(fields) {
		t.Fatalf("want %d cause(s) at %v, got %v", len(fields), fields, causes)
	}
	for i, c := range causes {
		if c.Field != fields[i] || !strings.Contains(c.Message, `SidecarSet "`+other+`"`) {
			t.Errorf("cause %d: want field %s naming %s, got %s: %s", i, fields[i], other, c.Field, c.Message)
		}
	}
}

func TestConflicts(t *testing.T) {
	prod := map[string]map[string]string{"team-a": {"env": "prod"}, "team-b": {"env": "dev"}}
	cases := []struct {
		name     string
		existing *apps.SidecarSet
		ss       *apps.SidecarSet
		fields   []string
	}{
		{name: "same container, same pods", existing: sidecarSet("logs", "nginx", "sidecar1"), ss: sidecarSet("more-logs", "nginx", "sidecar1"),
			fields: []string{"spec.containers[0].name"}},
		{name: "same container, disjoint pods", existing: sidecarSet("logs", "nginx", "sidecar1"), ss: sidecarSet("more-logs", "redis", "sidecar1")},
		{name: "other containers", existing: sidecarSet("logs", "nginx", "sidecar1"), ss: sidecarSet("mesh", "nginx", "envoy")},
		{name: "same container as an init container", existing: sidecarSet("logs", "nginx", "sidecar1"),
			ss: func() *apps.SidecarSet {
				ss := sidecarSet("init", "nginx")
				ss.Spec.InitContainers = sidecarSet("", "", "sidecar1").Spec.Containers
				return ss
			}(), fields: []string{"spec.initContainers[0].name"}},
		{name: "hot upgrade pair takes the name", existing: func() *apps.SidecarSet {
			ss := sidecarSet("mesh", "nginx", "envoy")
			ss.Spec.Containers[0].UpgradeStrategy.UpgradeType = apps.SidecarContainerHotUpgrade
			return ss
		}(), ss: sidecarSet("other", "nginx", "envoy-2"), fields: []string{"spec.containers[0].name"}},
		{name: "same container, other namespaces", existing: inNamespace(sidecarSet("logs", "nginx", "sidecar1"), "team-a"),
			ss: inNamespace(sidecarSet("more-logs", "nginx", "sidecar1"), "team-b")},
		{name: "namespace selected by the other", existing: withNamespaceSelector(sidecarSet("logs", "nginx", "sidecar1"), "env", "prod"),
			ss: inNamespace(sidecarSet("more-logs", "nginx", "sidecar1"), "team-a"), fields: []string{"spec.containers[0].name"}},
		{name: "namespace not selected by the other", existing: withNamespaceSelector(sidecarSet("logs", "nginx", "sidecar1"), "env", "prod"),
			ss: inNamespace(sidecarSet("more-logs", "nginx", "sidecar1"), "team-b")},
		{name: "namespace that does not exist yet", existing: withNamespaceSelector(sidecarSet("logs", "nginx", "sidecar1"), "env", "prod"),
			ss: inNamespace(sidecarSet("more-logs", "nginx", "sidecar1"), "team-c"), fields: []string{"spec.containers[0].name"}},
		{name: "disjoint namespace selectors", existing: withNamespaceSelector(sidecarSet("logs", "nginx", "sidecar1"), "env", "prod"),
			ss: withNamespaceSelector(sidecarSet("more-logs", "nginx", "sidecar1"), "env", "dev")},
		{name: "same volume, same definition", existing: withVolumes(sidecarSet("logs", "nginx", "a"), emptyDir("log")),
			ss: withVolumes(sidecarSet("more-logs", "nginx", "b"), emptyDir("log"))},
		{name: "same volume, other definition", existing: withVolumes(sidecarSet("logs", "nginx", "a"), emptyDir("log")),
			ss: withVolumes(sidecarSet("more-logs", "nginx", "b"), emptyDir("data"), hostPath("log", "/var/log")), fields: []string{"spec.volumes[1]"}},
		{name: "dotted volume is the same pod volume", existing: withVolumes(sidecarSet("logs", "nginx", "a"), emptyDir("nginx-conf")),
			ss: withVolumes(sidecarSet("conf", "nginx", "b"), hostPath("nginx.conf", "/etc/nginx")), fields: []string{"spec.volumes[0]"}},
		{name: "annotation overwritten", existing: withAnnotation(sidecarSet("logs", "nginx", "a"), "oom", apps.SidecarSetRetainPatchPolicy),
			ss: withAnnotation(sidecarSet("mesh", "nginx", "b"), "oom", apps.SidecarSetOverwritePatchPolicy), fields: []string{"spec.patchPodMetadata[0].annotations[oom]"}},
		{name: "annotation retained by both", existing: withAnnotation(sidecarSet("logs", "nginx", "a"), "oom", apps.SidecarSetRetainPatchPolicy),
			ss: withAnnotation(sidecarSet("mesh", "nginx", "b"), "oom", apps.SidecarSetRetainPatchPolicy)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newPlugin(t, prod, tc.existing)
			err := p.Validate(context.Background(), attrs(tc.ss, nil, ""), nil)
			expectRejected(t, err, tc.existing.Name, tc.fields...)
		})
	}
}

func TestUpdates(t *testing.T) {
	existing := sidecarSet("logs", "nginx", "sidecar1")
	p := newPlugin(t, nil, existing)

	// An update of the stored object itself does not conflict with itself.
	self := existing.DeepCopy()
	self.Spec.Containers[0].Image = "busybox:1.37"
	if err := p.Validate(context.Background(), attrs(self, existing, ""), nil); err != nil {
		t.Errorf("updating the SidecarSet itself: %v", err)
	}

	// A clash that got in earlier (racing creates) does not block unrelated updates...
	racer := sidecarSet("racer", "nginx", "sidecar1")
	bumped := racer.DeepCopy()
	bumped.Spec.Containers[0].Image = "busybox:1.37"
	if err := p.Validate(context.Background(), attrs(bumped, racer, ""), nil); err != nil {
		t.Errorf("update keeping an earlier clash: %v", err)
	}
	// ...but an update adding one is rejected.
	more := racer.DeepCopy()
	more.Spec.Containers = append(more.Spec.Containers, sidecarSet("", "", "sidecar1").Spec.Containers[0])
	more.Spec.Containers[1].Name = "sidecar2"
	widened := sidecarSet("logs", "nginx", "sidecar1", "sidecar2")
	p = newPlugin(t, nil, widened)
	expectRejected(t, p.Validate(context.Background(), attrs(more, racer, ""), nil), "logs", "spec.containers[1].name")

	// The status subresource is never checked.
	if err := p.Validate(context.Background(), attrs(more, racer, "status"), nil); err != nil {
		t.Errorf("status update: %v", err)
	}
}

func inNamespace(ss *apps.SidecarSet, ns string) *apps.SidecarSet {
	ss.Spec.Namespace = ns
	return ss
}

func withNamespaceSelector(ss *apps.SidecarSet, k, v string) *apps.SidecarSet {
	ss.Spec.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{k: v}}
	return ss
}

func withVolumes(ss *apps.SidecarSet, v ...corev1.Volume) *apps.SidecarSet {
	ss.Spec.Volumes = v
	return ss
}

func withAnnotation(ss *apps.SidecarSet, key string, policy apps.SidecarSetPatchPolicyType) *apps.SidecarSet {
	ss.Spec.PatchPodMetadata = []apps.SidecarSetPatchPodMetadata{{Annotations: map[string]string{key: "1"}, PatchPolicy: policy}}
	return ss
}
