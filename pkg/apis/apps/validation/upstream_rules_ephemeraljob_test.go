package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// TestUpstreamRulesEphemeralJob: pkg/webhook/ephemeraljob/validating/validation.go (a
// copy of kube's ephemeral container rules) and ephemeraljob_create_update_handler.go,
// which checks creates and updates alike. v1alpha1 is the only served version. Upstream
// reports at ephemeralContainers[i]; we report where the field is,
// spec.template.ephemeralContainers[i].
func TestUpstreamRulesEphemeralJob(t *testing.T) {
	const (
		v  = "ephemeraljob/validating/validation.go:"
		ec = "spec.template.ephemeralContainers[0]"
	)
	type ej = *apps.EphemeralJob
	// container changes the first container of the versioned job before defaulting.
	container := func(f func(*corev1.EphemeralContainerCommon)) func(*v1alpha1.EphemeralJob) {
		return func(j *v1alpha1.EphemeralJob) { f(&j.Spec.Template.EphemeralContainers[0].EphemeralContainerCommon) }
	}
	cases := []struct {
		upstream string
		mutate   func(*v1alpha1.EphemeralJob)
		want     []wantErr
	}{
		{upstream: v + "validateContainerCommon: name required",
			mutate: container(func(c *corev1.EphemeralContainerCommon) { c.Name = "" }), want: []wantErr{required(ec + ".name")}},
		{upstream: v + "validateContainerCommon: name a DNS label",
			mutate: container(func(c *corev1.EphemeralContainerCommon) { c.Name = "Debug_1" }), want: []wantErr{invalid(ec + ".name")}},
		{upstream: v + "validateContainerCommon: image required",
			mutate: container(func(c *corev1.EphemeralContainerCommon) { c.Image = "" }), want: []wantErr{required(ec + ".image")}},
		{upstream: v + "validateContainerCommon: terminationMessagePolicy supported",
			mutate: container(func(c *corev1.EphemeralContainerCommon) { c.TerminationMessagePolicy = "Always" }),
			want:   []wantErr{notSupported(ec + ".terminationMessagePolicy")}},
		{upstream: v + "validateContainerCommon: env valid (ValidateEnv)",
			mutate: container(func(c *corev1.EphemeralContainerCommon) { c.Env = []corev1.EnvVar{{Value: "x"}} }),
			want:   []wantErr{required(ec + ".env[0].name")}},
		{upstream: v + "validateContainerCommon: envFrom valid (ValidateEnvFrom)",
			mutate: container(func(c *corev1.EphemeralContainerCommon) {
				c.EnvFrom = []corev1.EnvFromSource{{ConfigMapRef: &corev1.ConfigMapEnvSource{}}}
			}), want: []wantErr{required(ec + ".envFrom[0].configMapRef.name")}},
		{upstream: v + "validatePullPolicy: Always, IfNotPresent or Never",
			mutate: container(func(c *corev1.EphemeralContainerCommon) { c.ImagePullPolicy = "Sometimes" }),
			want:   []wantErr{notSupported(ec + ".imagePullPolicy")}},
		{upstream: v + "validateContainerCommon: securityContext valid (ValidateSecurityContext)",
			mutate: container(func(c *corev1.EphemeralContainerCommon) {
				c.SecurityContext = &corev1.SecurityContext{RunAsUser: new(int64(-1))}
			}), want: []wantErr{invalid(ec + ".securityContext.runAsUser")}},
		{upstream: v + "validateContainerOnlyForPod: image without leading or trailing whitespace",
			mutate: container(func(c *corev1.EphemeralContainerCommon) { c.Image = " busybox" }),
			want:   []wantErr{invalid(ec+".image", "whitespace")}},
		{upstream: v + "validateEphemeralContainers: names unique",
			mutate: func(j *v1alpha1.EphemeralJob) {
				ecs := &j.Spec.Template.EphemeralContainers
				*ecs = append(*ecs, *(*ecs)[0].DeepCopy())
			}, want: []wantErr{duplicate("spec.template.ephemeralContainers[1].name")}},
		{upstream: v + "validateFieldAllowList: no ports (validateContainerPorts is never reached)",
			mutate: container(func(c *corev1.EphemeralContainerCommon) {
				c.Ports = []corev1.ContainerPort{{ContainerPort: 80, Protocol: corev1.ProtocolTCP}}
			}), want: []wantErr{forbidden(ec + ".ports")}},
		{upstream: v + "validateFieldAllowList: no resources",
			mutate: container(func(c *corev1.EphemeralContainerCommon) {
				c.Resources.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}
			}), want: []wantErr{forbidden(ec + ".resources")}},
		{upstream: v + "validateFieldAllowList: no probes",
			mutate: container(func(c *corev1.EphemeralContainerCommon) {
				c.LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}}
			}), want: []wantErr{forbidden(ec + ".livenessProbe")}},
		{upstream: v + "validateFieldAllowList: no lifecycle",
			mutate: container(func(c *corev1.EphemeralContainerCommon) {
				c.Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}}
			}), want: []wantErr{forbidden(ec + ".lifecycle")}},
		{upstream: v + "validateEphemeralContainers: no volumeMounts subPath",
			mutate: container(func(c *corev1.EphemeralContainerCommon) { c.VolumeMounts[0].SubPath = "x" }),
			want:   []wantErr{forbidden(ec + ".volumeMounts[0].subPath")}},
		{upstream: v + "validateEphemeralContainers: no volumeMounts subPathExpr",
			mutate: container(func(c *corev1.EphemeralContainerCommon) { c.VolumeMounts[0].SubPathExpr = "$(POD)" }),
			want:   []wantErr{forbidden(ec + ".volumeMounts[0].subPathExpr")}},
	}
	for _, tc := range cases {
		t.Run(tc.upstream, func(t *testing.T) {
			expectErrors(t, ValidateEphemeralJob(ejob(t, tc.mutate)), tc.want...)
			// The handler validates updates the same way.
			old := ejob(t, nil)
			job := ejob(t, tc.mutate)
			job.ResourceVersion, old.ResourceVersion = "1", "1"
			expectErrors(t, ValidateEphemeralJobUpdate(job, old), tc.want...)
		})
	}
}
