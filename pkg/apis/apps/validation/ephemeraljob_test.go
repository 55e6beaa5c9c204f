package validation

import (
	"bytes"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/examples"
	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// ejob is a valid v1alpha1 EphemeralJob, changed by mutate, then defaulted and
// converted as the server does.
func ejob(t *testing.T, mutate func(*v1alpha1.EphemeralJob)) *apps.EphemeralJob {
	t.Helper()
	v := &v1alpha1.EphemeralJob{
		ObjectMeta: metav1.ObjectMeta{Name: "debug", Namespace: "default"},
		Spec: v1alpha1.EphemeralJobSpec{
			Selector:    &metav1.LabelSelector{MatchLabels: map[string]string{"app": "helloworld"}},
			Replicas:    ptr.To[int32](2),
			Parallelism: ptr.To[int32](1),
			Template: v1alpha1.EphemeralContainerTemplateSpec{EphemeralContainers: []corev1.EphemeralContainer{{
				EphemeralContainerCommon: corev1.EphemeralContainerCommon{
					Name: "debugger", Image: "busybox:1.36", Command: []string{"sleep", "30"},
					VolumeMounts: []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
				},
				TargetContainerName: "main",
			}}},
		},
	}
	if mutate != nil {
		mutate(v)
	}
	v1alpha1.SetObjectDefaults_EphemeralJob(v)
	out := &apps.EphemeralJob{}
	toInternal(t, v, out)
	return out
}

func TestValidateEphemeralJob(t *testing.T) {
	ec := func(j *v1alpha1.EphemeralJob) *corev1.EphemeralContainer {
		return &j.Spec.Template.EphemeralContainers[0]
	}
	const ecs = "spec.template.ephemeralContainers"
	tests := []struct {
		name   string
		mutate func(*v1alpha1.EphemeralJob)
		want   []wantErr
	}{
		{"valid", nil, nil},
		{"valid without target, replicas or parallelism", func(j *v1alpha1.EphemeralJob) {
			ec(j).TargetContainerName, j.Spec.Replicas, j.Spec.Parallelism = "", nil, nil
		}, nil},
		{"no selector", func(j *v1alpha1.EphemeralJob) { j.Spec.Selector = nil }, []wantErr{required("spec.selector")}},
		{"empty selector", func(j *v1alpha1.EphemeralJob) { j.Spec.Selector = &metav1.LabelSelector{} },
			[]wantErr{invalid("spec.selector", "empty selector")}},
		{"bad selector operator", func(j *v1alpha1.EphemeralJob) {
			j.Spec.Selector.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Near"}}
		}, []wantErr{invalid("spec.selector.matchExpressions[0].operator")}},
		{"negative replicas", func(j *v1alpha1.EphemeralJob) { j.Spec.Replicas = ptr.To[int32](-1) },
			[]wantErr{invalid("spec.replicas")}},
		{"negative parallelism", func(j *v1alpha1.EphemeralJob) { j.Spec.Parallelism = ptr.To[int32](-2) },
			[]wantErr{invalid("spec.parallelism")}},
		{"zero deadline", func(j *v1alpha1.EphemeralJob) { j.Spec.ActiveDeadlineSeconds = ptr.To[int64](0) },
			[]wantErr{invalid("spec.activeDeadlineSeconds")}},
		{"negative ttl", func(j *v1alpha1.EphemeralJob) { j.Spec.TTLSecondsAfterFinished = ptr.To[int32](-5) },
			[]wantErr{invalid("spec.ttlSecondsAfterFinished")}},
		{"no ephemeral containers", func(j *v1alpha1.EphemeralJob) { j.Spec.Template.EphemeralContainers = nil },
			[]wantErr{required(ecs)}},
		{"container without name", func(j *v1alpha1.EphemeralJob) { ec(j).Name = "" }, []wantErr{required(ecs + "[0].name")}},
		{"container name no DNS label", func(j *v1alpha1.EphemeralJob) { ec(j).Name = "Debug_er" },
			[]wantErr{invalid(ecs + "[0].name")}},
		{"container without image", func(j *v1alpha1.EphemeralJob) { ec(j).Image = "" }, []wantErr{required(ecs + "[0].image")}},
		{"two containers of one name", func(j *v1alpha1.EphemeralJob) {
			j.Spec.Template.EphemeralContainers = append(j.Spec.Template.EphemeralContainers, *ec(j).DeepCopy())
		}, []wantErr{duplicate(ecs + "[1].name")}},
		{"named as its target container", func(j *v1alpha1.EphemeralJob) { ec(j).Name = "main" },
			[]wantErr{duplicate(ecs + "[0].name")}},
		{"ports", func(j *v1alpha1.EphemeralJob) { ec(j).Ports = []corev1.ContainerPort{{ContainerPort: 80}} },
			[]wantErr{forbidden(ecs + "[0].ports")}},
		{"resources", func(j *v1alpha1.EphemeralJob) {
			ec(j).Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}
		}, []wantErr{forbidden(ecs + "[0].resources")}},
		{"readiness probe", func(j *v1alpha1.EphemeralJob) {
			ec(j).ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}}
		}, []wantErr{forbidden(ecs + "[0].readinessProbe")}},
		{"volume mount with subPath", func(j *v1alpha1.EphemeralJob) { ec(j).VolumeMounts[0].SubPath = "x" },
			[]wantErr{forbidden(ecs + "[0].volumeMounts[0].subPath")}},
		{"bad pull policy", func(j *v1alpha1.EphemeralJob) { ec(j).ImagePullPolicy = "Sometimes" },
			[]wantErr{notSupported(ecs + "[0].imagePullPolicy")}},
		{"target no DNS label", func(j *v1alpha1.EphemeralJob) { ec(j).TargetContainerName = "Main!" },
			[]wantErr{invalid(ecs + "[0].targetContainerName")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			expectErrors(t, ValidateEphemeralJob(ejob(t, tc.mutate)), tc.want...)
		})
	}
}

func TestValidateEphemeralJobUpdateAndStatus(t *testing.T) {
	old := ejob(t, nil)
	old.ResourceVersion = "1"
	paused := ejob(t, func(j *v1alpha1.EphemeralJob) { j.Spec.Paused = true })
	paused.ResourceVersion = "1"
	expectErrors(t, ValidateEphemeralJobUpdate(paused, old))

	st := old.DeepCopy()
	st.Status = apps.EphemeralJobStatus{Phase: "Sleeping", Matches: 2, Failed: -1}
	expectErrors(t, ValidateEphemeralJobStatusUpdate(st, old), notSupported("status.phase"), invalid("status.failed"))
}

// The documented example (examples/ephemeraljob.yaml) is valid as written.
func TestDocumentedEphemeralJob(t *testing.T) {
	data, err := examples.Read("ephemeraljob.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, _, _ := bytes.Cut(data, []byte("\n---\n"))
	v := &v1alpha1.EphemeralJob{}
	if err := yaml.UnmarshalStrict(doc, v); err != nil {
		t.Fatal(err)
	}
	v.Namespace = requestNamespace
	v1alpha1.SetObjectDefaults_EphemeralJob(v)
	j := &apps.EphemeralJob{}
	toInternal(t, v, j)
	expectErrors(t, ValidateEphemeralJob(j))
}
