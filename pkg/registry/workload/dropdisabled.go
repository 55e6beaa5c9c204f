package workload

import (
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/kubernetes/pkg/api/pod"
	k8scorev1 "k8s.io/kubernetes/pkg/apis/core/v1"
)

// DropDisabledTemplateFields removes from a pod template the fields of kube features
// that are off in this server (--feature-gates; kube's defaults otherwise) unless the
// stored template old already uses them, as kube's registry does in PrepareForCreate and
// PrepareForUpdate for the templates of Deployments, StatefulSets, DaemonSets and Jobs
// (pkg/api/pod.DropDisabledTemplateFields). A template so reads back as kube would store
// it in a Deployment, and a field of an alpha feature is not kept where kube drops it.
//
// kube's rules work on its internal types: the template is converted (a copy: the
// conversion shares memory with its input and the rules write), and written back only
// when a field was dropped, so every other template is left exactly as it came.
func DropDisabledTemplateFields(tmpl, old *corev1.PodTemplateSpec) {
	if tmpl == nil {
		return
	}
	internal := internalTemplate(tmpl.DeepCopy()) // a copy: the rules write
	if internal == nil {
		return // validation converts the same template and reports it
	}
	before := internal.DeepCopy()
	pod.DropDisabledTemplateFields(internal, internalTemplate(old)) // old is only read
	if apiequality.Semantic.DeepEqual(before, internal) {
		return
	}
	var out corev1.PodTemplateSpec
	if err := k8scorev1.Convert_core_PodTemplateSpec_To_v1_PodTemplateSpec(internal, &out, nil); err != nil {
		return
	}
	// The conversion back fills the deprecated serviceAccount from serviceAccountName
	// and always gives a securityContext (core keeps hostNetwork and the like in it):
	// keep what the client sent.
	out.Spec.DeprecatedServiceAccount = tmpl.Spec.DeprecatedServiceAccount
	if tmpl.Spec.SecurityContext == nil && apiequality.Semantic.DeepEqual(out.Spec.SecurityContext, &corev1.PodSecurityContext{}) {
		out.Spec.SecurityContext = nil
	}
	*tmpl = out
}
