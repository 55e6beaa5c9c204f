package validation

import (
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/core"
	k8scorev1 "k8s.io/kubernetes/pkg/apis/core/v1"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

var supportedEphemeralJobPhases = []apps.EphemeralJobPhase{
	"", apps.EphemeralJobSucceeded, apps.EphemeralJobFailed, apps.EphemeralJobWaiting, apps.EphemeralJobRunning,
	apps.EphemeralJobPause, apps.EphemeralJobError, apps.EphemeralJobUnknown,
}

// ValidateEphemeralJob validates a new EphemeralJob.
func ValidateEphemeralJob(job *apps.EphemeralJob) field.ErrorList {
	if job == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil EphemeralJob"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&job.ObjectMeta, true,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(allErrs, validateEphemeralJobSpec(&job.Spec, field.NewPath("spec"))...)
}

// ValidateEphemeralJobUpdate validates an update. As in OpenKruise the spec may change
// (paused, parallelism, replicas, the deadline, the TTL); the new spec must be valid.
// Containers already injected stay as they are: kube never changes or removes them.
func ValidateEphemeralJobUpdate(job, old *apps.EphemeralJob) field.ErrorList {
	if job == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil EphemeralJob"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(allErrs, validateEphemeralJobSpec(&job.Spec, field.NewPath("spec"))...)
}

// ValidateEphemeralJobStatusUpdate validates what the controller reports: no
// negative counts, a known phase.
func ValidateEphemeralJobStatusUpdate(job, old *apps.EphemeralJob) field.ErrorList {
	if job == nil || old == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil EphemeralJob"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&job.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	st, p := &job.Status, field.NewPath("status")
	allErrs = append(allErrs, validateCounters([]counter{
		{"match", st.Matches}, {"running", st.Running}, {"succeeded", st.Succeeded}, {"waiting", st.Waiting}, {"failed", st.Failed},
	}, p)...)
	if !phaseIn(st.Phase, supportedEphemeralJobPhases) {
		allErrs = append(allErrs, field.NotSupported(p.Child("phase"), st.Phase, supportedEphemeralJobPhases[1:]))
	}
	return allErrs
}

func validateEphemeralJobSpec(spec *apps.EphemeralJobSpec, fldPath *field.Path) field.ErrorList {
	allErrs := validateSelector(spec.Selector, "EphemeralJob", fldPath.Child("selector"))
	if spec.Replicas != nil {
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(*spec.Replicas), fldPath.Child("replicas"))...)
	}
	if spec.Parallelism != nil {
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(*spec.Parallelism), fldPath.Child("parallelism"))...)
	}
	// As kube's Job: a deadline of zero would fail the job before it starts.
	if d := spec.ActiveDeadlineSeconds; d != nil && *d <= 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("activeDeadlineSeconds"), *d, "must be greater than 0"))
	}
	if spec.TTLSecondsAfterFinished != nil {
		allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(*spec.TTLSecondsAfterFinished), fldPath.Child("ttlSecondsAfterFinished"))...)
	}
	return append(allErrs, validateEphemeralContainerTemplate(spec.Template.EphemeralContainers,
		fldPath.Child("template", "ephemeralContainers"))...)
}

// ephemeralTargetPlaceholder names the stand-in container of the pod the template is
// checked in when no container is targeted (a name no DNS label can collide with by
// accident is impossible, so it is unlikely instead).
const ephemeralTargetPlaceholder = "kruise-ephemeraljob-target-placeholder"

// validateEphemeralContainerTemplate checks the containers by kube's own rules for
// ephemeral containers (those of kube-apiserver's ephemeralcontainers subresource:
// name, image, forbidden fields such as ports, probes, resources and lifecycle, env,
// security context, no subPath), so a job is refused when created rather than at
// every pod it reaches. The target pods are not known yet: the containers are checked
// in a stand-in pod that has each targeted container and each mounted volume.
func validateEphemeralContainerTemplate(ecs []corev1.EphemeralContainer, fldPath *field.Path) field.ErrorList {
	if len(ecs) == 0 {
		return field.ErrorList{field.Required(fldPath, "at least one ephemeral container")}
	}
	var allErrs field.ErrorList
	targets, volumes := sets.New[string](), sets.New[string]()
	defaulted := make([]corev1.EphemeralContainer, len(ecs))
	for i := range ecs {
		ec := ecs[i].DeepCopy()
		if t := ec.TargetContainerName; t != "" {
			if msgs := validation.IsDNS1123Label(t); len(msgs) > 0 {
				for _, msg := range msgs {
					allErrs = append(allErrs, field.Invalid(fldPath.Index(i).Child("targetContainerName"), t, msg))
				}
				ec.TargetContainerName = ""
			} else {
				targets.Insert(t)
			}
		}
		for _, vm := range ec.VolumeMounts {
			if vm.Name != "" && len(validation.IsDNS1123Label(vm.Name)) == 0 {
				volumes.Insert(vm.Name)
			}
		}
		// kube-apiserver defaults a container it is sent; the stored template need not
		// carry those defaults.
		k8scorev1.SetDefaults_Container((*corev1.Container)(&ec.EphemeralContainerCommon))
		defaulted[i] = *ec
	}
	if targets.Len() == 0 {
		targets.Insert(ephemeralTargetPlaceholder)
	}

	spec := &core.PodSpec{RestartPolicy: core.RestartPolicyAlways, DNSPolicy: core.DNSClusterFirst,
		TerminationGracePeriodSeconds: new(int64), SchedulerName: corev1.DefaultSchedulerName,
		SecurityContext: &core.PodSecurityContext{}}
	for _, name := range sets.List(targets) {
		spec.Containers = append(spec.Containers, core.Container{Name: name, Image: "placeholder",
			ImagePullPolicy: core.PullIfNotPresent, TerminationMessagePolicy: core.TerminationMessageReadFile})
	}
	for _, name := range sets.List(volumes) {
		spec.Volumes = append(spec.Volumes, core.Volume{Name: name, VolumeSource: core.VolumeSource{EmptyDir: &core.EmptyDirVolumeSource{}}})
	}
	for i := range defaulted {
		var out core.EphemeralContainer
		if err := k8scorev1.Convert_v1_EphemeralContainer_To_core_EphemeralContainer(&defaulted[i], &out, nil); err != nil {
			return append(allErrs, field.InternalError(fldPath.Index(i), fmt.Errorf("converting the ephemeral container: %w", err)))
		}
		spec.EphemeralContainers = append(spec.EphemeralContainers, out)
	}
	meta := &metav1.ObjectMeta{Name: "pod", Namespace: "default"}
	opts := podutil.GetValidationOptionsFromPodSpecAndMeta(spec, nil, meta, nil)
	// Only what kube says about the ephemeral containers counts; the stand-in pod is ours.
	const kubePath = "spec.ephemeralContainers"
	for _, e := range corevalidation.ValidatePodSpec(spec, meta, field.NewPath("spec"), opts) {
		if e.Field != kubePath && !strings.HasPrefix(e.Field, kubePath+"[") {
			continue
		}
		e.Field = fldPath.String() + strings.TrimPrefix(e.Field, kubePath)
		allErrs = append(allErrs, e)
	}
	return allErrs
}
