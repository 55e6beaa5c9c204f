package validation

import (
	"fmt"
	"regexp"
	"strings"

	corev1 "k8s.io/api/core/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	"k8s.io/kubernetes/pkg/apis/core"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"k8s.io/kubernetes/pkg/fieldpath"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/defaulting"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourceexpr"
)

var (
	supportedPodInjectPolicies   = []apps.PodInjectPolicyType{apps.BeforeAppContainerType, apps.AfterAppContainerType}
	supportedShareVolumePolicies = []apps.ShareVolumePolicyType{apps.ShareVolumePolicyEnabled, apps.ShareVolumePolicyDisabled}
	supportedUpgradeTypes        = []apps.SidecarContainerUpgradeType{apps.SidecarContainerColdUpgrade, apps.SidecarContainerHotUpgrade}
	// Init containers are injected at creation only and never upgraded in place.
	supportedInitUpgradeTypes      = []apps.SidecarContainerUpgradeType{apps.SidecarContainerColdUpgrade}
	supportedTargetContainersModes = []apps.TargetContainersModeType{apps.TargetContainersModeSum, apps.TargetContainersModeMax}
	// transferEnvFieldPaths are the pod fields a sidecar may read its source container's name from.
	transferEnvFieldPaths = []string{"metadata.name", "metadata.labels['<KEY>']", "metadata.annotations['<KEY>']"}
)

// validateSidecarSetPodParts checks what a SidecarSet adds to pods: its init
// containers, containers, volumes and pull secrets, by kube's own pod rules, and the
// SidecarSet's per-sidecar settings.
func validateSidecarSetPodParts(spec, oldSpec *apps.SidecarSetSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if len(spec.InitContainers)+len(spec.Containers) == 0 {
		allErrs = append(allErrs, field.Required(fldPath.Child("containers"), "a SidecarSet needs at least one container or init container"))
	}
	allErrs = append(allErrs, validateAsPodSpec(spec, oldSpec, fldPath)...)
	for i := range spec.InitContainers {
		allErrs = append(allErrs, validateSidecarContainer(&spec.InitContainers[i], true, fldPath.Child("initContainers").Index(i))...)
	}
	for i := range spec.Containers {
		allErrs = append(allErrs, validateSidecarContainer(&spec.Containers[i], false, fldPath.Child("containers").Index(i))...)
	}
	return append(allErrs, validateHotUpgradeNames(spec, fldPath.Child("containers"))...)
}

// validateAsPodSpec validates the sidecars, volumes and pull secrets as one pod spec
// holding only them, at the SidecarSet's own paths (spec.containers[i] is
// spec.containers[i] in both). So names are unique across init and plain containers,
// every volume mount names a SidecarSet volume, and each container is one kube would
// run. oldSpec, on update, relaxes rules the stored object already broke, as kube does.
func validateAsPodSpec(spec, oldSpec *apps.SidecarSetSpec, fldPath *field.Path) field.ErrorList {
	tmpl, err := toCoreTemplate(sidecarPodTemplate(spec))
	if err != nil {
		return field.ErrorList{field.InternalError(fldPath, err)}
	}
	var oldTmpl *core.PodTemplateSpec
	if oldSpec != nil {
		if oldTmpl, err = toCoreTemplate(sidecarPodTemplate(oldSpec)); err != nil {
			return field.ErrorList{field.InternalError(fldPath, err)}
		}
	}
	opts := podutil.GetValidationOptionsFromPodTemplate(tmpl, oldTmpl)
	var allErrs field.ErrorList
	for _, e := range corevalidation.ValidatePodSpec(&tmpl.Spec, nil, fldPath, opts) {
		// A pod needs a container; a SidecarSet of init containers only does not.
		if e.Type == field.ErrorTypeRequired && e.Field == fldPath.Child("containers").String() {
			continue
		}
		allErrs = append(allErrs, e)
	}
	return allErrs
}

// sidecarPodTemplate is a pod template of what the SidecarSet injects, volumes named
// as they are in pods, with kube's pod-level defaults so only the SidecarSet's own
// parts can be at fault.
func sidecarPodTemplate(spec *apps.SidecarSetSpec) *corev1.PodTemplateSpec {
	t := &corev1.PodTemplateSpec{Spec: corev1.PodSpec{
		Volumes:          spec.Volumes,
		ImagePullSecrets: spec.ImagePullSecrets,
	}}
	for _, c := range spec.InitContainers {
		t.Spec.InitContainers = append(t.Spec.InitContainers, c.Container)
	}
	for _, c := range spec.Containers {
		t.Spec.Containers = append(t.Spec.Containers, c.Container)
	}
	t = t.DeepCopy()
	for i := range t.Spec.Volumes {
		t.Spec.Volumes[i].Name = pub.PodVolumeName(t.Spec.Volumes[i].Name)
	}
	for _, containers := range [][]corev1.Container{t.Spec.InitContainers, t.Spec.Containers} {
		for i := range containers {
			c := &containers[i]
			for j := range c.VolumeMounts {
				c.VolumeMounts[j].Name = pub.PodVolumeName(c.VolumeMounts[j].Name)
			}
			for j := range c.VolumeDevices {
				c.VolumeDevices[j].Name = pub.PodVolumeName(c.VolumeDevices[j].Name)
			}
		}
	}
	defaulting.PodTemplate(t)
	return t
}

// validateSidecarContainer checks the settings a SidecarSet adds to a container.
func validateSidecarContainer(c *apps.SidecarContainer, initContainer bool, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if !phaseIn(c.PodInjectPolicy, supportedPodInjectPolicies) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("podInjectPolicy"), c.PodInjectPolicy, supportedPodInjectPolicies))
	}
	if !phaseIn(c.ShareVolumePolicy.Type, supportedShareVolumePolicies) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("shareVolumePolicy", "type"), c.ShareVolumePolicy.Type, supportedShareVolumePolicies))
	}
	if p := c.ShareVolumeDevicePolicy; p != nil && !phaseIn(p.Type, supportedShareVolumePolicies) {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("shareVolumeDevicePolicy", "type"), p.Type, supportedShareVolumePolicies))
	}
	upgradePath := fldPath.Child("upgradeStrategy")
	upgradeTypes := supportedUpgradeTypes
	if initContainer {
		upgradeTypes = supportedInitUpgradeTypes
	}
	if !phaseIn(c.UpgradeStrategy.UpgradeType, upgradeTypes) {
		allErrs = append(allErrs, field.NotSupported(upgradePath.Child("upgradeType"), c.UpgradeStrategy.UpgradeType, upgradeTypes))
	}
	if c.UpgradeStrategy.UpgradeType == apps.SidecarContainerHotUpgrade {
		emptyImage := c.UpgradeStrategy.HotUpgradeEmptyImage
		emptyPath := upgradePath.Child("hotUpgradeEmptyImage")
		switch {
		case emptyImage == "":
			allErrs = append(allErrs, field.Required(emptyPath, "HotUpgrade needs the image the idle container runs"))
		case strings.TrimSpace(emptyImage) != emptyImage:
			allErrs = append(allErrs, field.Invalid(emptyPath, emptyImage, "must not have leading or trailing whitespace"))
		case emptyImage == c.Image:
			allErrs = append(allErrs, field.Invalid(emptyPath, emptyImage, "must differ from the sidecar's image: the idle container must do no work"))
		}
	}
	allErrs = append(allErrs, validateTransferEnv(c.TransferEnv, fldPath.Child("transferEnv"))...)
	if c.ResourcesPolicy != nil {
		allErrs = append(allErrs, validateResourcesPolicy(c, initContainer, fldPath)...)
	}
	return allErrs
}

// validateHotUpgradeNames checks the two containers a hot-upgraded sidecar runs as
// (<name>-1 and <name>-2): valid names that no other sidecar of the set uses.
func validateHotUpgradeNames(spec *apps.SidecarSetSpec, fldPath *field.Path) field.ErrorList {
	names := make(map[string]bool, len(spec.InitContainers)+len(spec.Containers))
	for _, c := range spec.InitContainers {
		names[c.Name] = true
	}
	for _, c := range spec.Containers {
		names[c.Name] = true
	}
	var allErrs field.ErrorList
	for i, c := range spec.Containers {
		if c.UpgradeStrategy.UpgradeType != apps.SidecarContainerHotUpgrade || c.Name == "" {
			continue
		}
		namePath := fldPath.Index(i).Child("name")
		for _, n := range pub.HotUpgradeContainerNames(c.Name) {
			for _, msg := range utilvalidation.IsDNS1123Label(n) {
				allErrs = append(allErrs, field.Invalid(namePath, c.Name, fmt.Sprintf("a HotUpgrade sidecar runs as %s: %s", n, msg)))
			}
			if names[n] {
				allErrs = append(allErrs, field.Invalid(namePath, c.Name,
					fmt.Sprintf("a HotUpgrade sidecar runs as %s, the name of another container of this SidecarSet", n)))
			}
		}
	}
	return allErrs
}

// validateTransferEnv checks env vars copied from the pod's own containers: from
// exactly one source container, at least one valid variable name.
func validateTransferEnv(envs []apps.TransferEnvVar, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i, e := range envs {
		p := fldPath.Index(i)
		switch {
		case e.SourceContainerName == "" && e.SourceContainerNameFrom == nil:
			allErrs = append(allErrs, field.Required(p.Child("sourceContainerName"),
				"sourceContainerName or sourceContainerNameFrom must name the container to copy from"))
		case e.SourceContainerName != "" && e.SourceContainerNameFrom != nil:
			allErrs = append(allErrs, field.Forbidden(p.Child("sourceContainerNameFrom"), "may not be set together with sourceContainerName"))
		}
		if e.SourceContainerName != "" {
			for _, msg := range utilvalidation.IsDNS1123Label(e.SourceContainerName) {
				allErrs = append(allErrs, field.Invalid(p.Child("sourceContainerName"), e.SourceContainerName, msg))
			}
		}
		if from := e.SourceContainerNameFrom; from != nil {
			allErrs = append(allErrs, validateSourceContainerFieldRef(from.FieldRef, p.Child("sourceContainerNameFrom", "fieldRef"))...)
		}
		if e.EnvName == "" && len(e.EnvNames) == 0 {
			allErrs = append(allErrs, field.Required(p.Child("envName"), "envName or envNames must name the variables to copy"))
		}
		if e.EnvName != "" {
			allErrs = append(allErrs, validateEnvVarName(e.EnvName, p.Child("envName"))...)
		}
		for j, n := range e.EnvNames {
			allErrs = append(allErrs, validateEnvVarName(n, p.Child("envNames").Index(j))...)
		}
	}
	return allErrs
}

func validateEnvVarName(name string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, msg := range utilvalidation.IsEnvVarName(name) {
		allErrs = append(allErrs, field.Invalid(fldPath, name, msg))
	}
	return allErrs
}

// validateSourceContainerFieldRef checks a reference to the pod's name, or to one of
// its labels or annotations, that holds the source container's name.
func validateSourceContainerFieldRef(ref *corev1.ObjectFieldSelector, fldPath *field.Path) field.ErrorList {
	if ref == nil {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var allErrs field.ErrorList
	if ref.APIVersion != "v1" {
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("apiVersion"), ref.APIVersion, []string{"v1"}))
	}
	pathPath := fldPath.Child("fieldPath")
	if ref.FieldPath == "" {
		return append(allErrs, field.Required(pathPath, ""))
	}
	path, subscript, subscripted := fieldpath.SplitMaybeSubscriptedPath(ref.FieldPath)
	switch {
	case !subscripted && path == "metadata.name":
	case subscripted && path == "metadata.labels":
		for _, msg := range utilvalidation.IsQualifiedName(subscript) {
			allErrs = append(allErrs, field.Invalid(pathPath, ref.FieldPath, msg))
		}
	case subscripted && path == "metadata.annotations":
		for _, msg := range utilvalidation.IsQualifiedName(strings.ToLower(subscript)) {
			allErrs = append(allErrs, field.Invalid(pathPath, ref.FieldPath, msg))
		}
	default:
		allErrs = append(allErrs, field.NotSupported(pathPath, ref.FieldPath, transferEnvFieldPaths))
	}
	return allErrs
}

// validateResourcesPolicy checks a sidecar's resourcesPolicy as OpenKruise does: not
// together with fixed resources, only on a plain sidecar or a native-sidecar init
// container (a run-to-completion init container runs before the others and is not
// sized from them), a mode, a regex that compiles, at least one of limits/requests
// and expressions, at most resourceexpr.MaxLength bytes long, that parse with the
// variable of their own resource.
func validateResourcesPolicy(c *apps.SidecarContainer, initContainer bool, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	p := c.ResourcesPolicy
	path := fldPath.Child("resourcesPolicy")
	if len(c.Resources.Limits) > 0 || len(c.Resources.Requests) > 0 {
		allErrs = append(allErrs, field.Forbidden(path, "may not be set together with resources"))
	}
	if initContainer && (c.RestartPolicy == nil || *c.RestartPolicy != corev1.ContainerRestartPolicyAlways) {
		allErrs = append(allErrs, field.Forbidden(path, "only a native sidecar init container (restartPolicy Always) may have a resourcesPolicy"))
	}
	if !phaseIn(p.TargetContainersMode, supportedTargetContainersModes) {
		allErrs = append(allErrs, field.NotSupported(path.Child("targetContainersMode"), p.TargetContainersMode, supportedTargetContainersModes))
	}
	regexPath := path.Child("targetContainersNameRegex")
	if p.TargetContainersNameRegex == "" {
		allErrs = append(allErrs, field.Required(regexPath, "selects the pod's containers the resources are computed from"))
	} else if _, err := regexp.Compile(p.TargetContainersNameRegex); err != nil {
		allErrs = append(allErrs, field.Invalid(regexPath, p.TargetContainersNameRegex, err.Error()))
	}
	exprPath := path.Child("resourcesExpr")
	e := p.ResourcesExpr
	if e.Limits == nil && e.Requests == nil {
		allErrs = append(allErrs, field.Required(exprPath, "at least one of limits and requests"))
	}
	check := func(src string, r corev1.ResourceName, at *field.Path) {
		if src == "" {
			return
		}
		if len(src) > resourceexpr.MaxLength {
			allErrs = append(allErrs, field.TooLong(at, "", resourceexpr.MaxLength))
			return
		}
		if _, err := resourceexpr.Parse(src, string(r)); err != nil {
			allErrs = append(allErrs, field.Invalid(at, src, err.Error()))
		}
	}
	if l := e.Limits; l != nil {
		check(l.CPU, corev1.ResourceCPU, exprPath.Child("limits", "cpu"))
		check(l.Memory, corev1.ResourceMemory, exprPath.Child("limits", "memory"))
	}
	if r := e.Requests; r != nil {
		check(r.CPU, corev1.ResourceCPU, exprPath.Child("requests", "cpu"))
		check(r.Memory, corev1.ResourceMemory, exprPath.Child("requests", "memory"))
	}
	return allErrs
}
