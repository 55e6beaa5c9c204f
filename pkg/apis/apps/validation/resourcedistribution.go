package validation

import (
	"errors"
	"fmt"
	"slices"

	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
)

// maxDistributedBytes is kube's limit on a ConfigMap's or Secret's data: a larger
// resource could never be copied.
const maxDistributedBytes = 1024 * 1024

// ValidateResourceDistribution validates a ResourceDistribution: a v1 ConfigMap or
// Secret with a valid name and well-formed data, and targets whose namespace names and
// label selector are valid.
func ValidateResourceDistribution(rd *apps.ResourceDistribution) field.ErrorList {
	if rd == nil {
		return field.ErrorList{field.InternalError(nil, errors.New("nil ResourceDistribution"))}
	}
	allErrs := apimachineryvalidation.ValidateObjectMeta(&rd.ObjectMeta, false,
		apimachineryvalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	_, errs := validateDistributedResource(rd.Spec.Resource.Raw, field.NewPath("spec", "resource"))
	allErrs = append(allErrs, errs...)
	return append(allErrs, validateDistributionTargets(&rd.Spec.Targets, field.NewPath("spec", "targets"))...)
}

// ValidateResourceDistributionUpdate also keeps the resource's kind and name: copies
// of another name or kind would be new objects, and the old copies would be orphaned
// (OpenKruise's rule).
func ValidateResourceDistributionUpdate(rd, old *apps.ResourceDistribution) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&rd.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	fldPath := field.NewPath("spec", "resource")
	res, errs := validateDistributedResource(rd.Spec.Resource.Raw, fldPath)
	allErrs = append(allErrs, errs...)
	allErrs = append(allErrs, validateDistributionTargets(&rd.Spec.Targets, field.NewPath("spec", "targets"))...)
	oldRes, oldErrs := resourcedistribution.Decode(old.Spec.Resource.Raw, fldPath)
	if res == nil || len(oldErrs) > 0 {
		return allErrs
	}
	if res.Kind() != oldRes.Kind() {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("kind"), res.Kind(), "is immutable"))
	}
	if res.Meta().Name != oldRes.Meta().Name {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("metadata", "name"), res.Meta().Name, "is immutable"))
	}
	return allErrs
}

// ValidateResourceDistributionStatusUpdate checks the counts the controller writes.
func ValidateResourceDistributionStatusUpdate(rd, old *apps.ResourceDistribution) field.ErrorList {
	allErrs := apimachineryvalidation.ValidateObjectMetaUpdate(&rd.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	s := rd.Status
	return append(allErrs, validateCounters([]counter{
		{"desired", s.Desired}, {"succeeded", s.Succeeded}, {"failed", s.Failed},
	}, field.NewPath("status"))...)
}

// ResourceDistributionWarnings: what is accepted, as OpenKruise accepts it, but does not
// do what it seems to.
func ResourceDistributionWarnings(rd *apps.ResourceDistribution) []string {
	var out []string
	if res, errs := resourcedistribution.Decode(rd.Spec.Resource.Raw, field.NewPath("spec", "resource")); len(errs) == 0 && res.Meta().Namespace != "" {
		out = append(out, fmt.Sprintf("spec.resource.metadata.namespace %q is ignored: the copies go to the target namespaces", res.Meta().Namespace))
	}
	t := rd.Spec.Targets
	for _, n := range t.IncludedNamespaces.List {
		if slices.Contains(resourcedistribution.NeverTargets, n.Name) && n.Name != resourcedistribution.SystemNamespace {
			out = append(out, fmt.Sprintf("spec.targets.includedNamespaces: %s never gets a copy", n.Name))
		}
	}
	hasSelector := len(t.NamespaceLabelSelector.MatchLabels)+len(t.NamespaceLabelSelector.MatchExpressions) > 0
	switch {
	case t.AllNamespaces && (len(t.IncludedNamespaces.List) > 0 || hasSelector):
		out = append(out, "spec.targets.allNamespaces selects every namespace: includedNamespaces and namespaceLabelSelector add none")
	case !t.AllNamespaces && len(t.IncludedNamespaces.List) == 0 && !hasSelector:
		out = append(out, "spec.targets selects no namespace: set allNamespaces, includedNamespaces or namespaceLabelSelector")
	}
	return out
}

// validateDistributedResource decodes spec.resource and checks what kube-apiserver
// would refuse in every copy: the name, labels and annotations, the data keys and size;
// and that no other controller writes such copies (resourcedistribution.OwnedElsewhere).
func validateDistributedResource(raw []byte, fldPath *field.Path) (*resourcedistribution.Resource, field.ErrorList) {
	res, errs := resourcedistribution.Decode(raw, fldPath)
	if len(errs) > 0 {
		return nil, errs
	}
	meta := res.Meta()
	metaPath := fldPath.Child("metadata")
	var allErrs field.ErrorList
	if meta.Name == "" {
		allErrs = append(allErrs, field.Required(metaPath.Child("name"), "copies are made under this name"))
	} else {
		for _, msg := range apimachineryvalidation.NameIsDNSSubdomain(meta.Name, false) {
			allErrs = append(allErrs, field.Invalid(metaPath.Child("name"), meta.Name, msg))
		}
	}
	if meta.Namespace != "" {
		for _, msg := range apimachineryvalidation.ValidateNamespaceName(meta.Namespace, false) {
			allErrs = append(allErrs, field.Invalid(metaPath.Child("namespace"), meta.Namespace, msg))
		}
	}
	allErrs = append(allErrs, resourcedistribution.OwnedElsewhere(res, fldPath)...)
	allErrs = append(allErrs, metav1validation.ValidateLabels(meta.Labels, metaPath.Child("labels"))...)
	allErrs = append(allErrs, apimachineryvalidation.ValidateAnnotations(meta.Annotations, metaPath.Child("annotations"))...)

	size := 0
	checkKeys := func(keys []string, p *field.Path, seen sets.Set[string]) {
		for _, k := range keys {
			for _, msg := range validation.IsConfigMapKey(k) {
				allErrs = append(allErrs, field.Invalid(p.Key(k), k, msg))
			}
			if seen.Has(k) {
				allErrs = append(allErrs, field.Duplicate(p.Key(k), k))
			}
			seen.Insert(k)
		}
	}
	seen := sets.New[string]()
	if cm := res.ConfigMap; cm != nil {
		checkKeys(sets.List(sets.KeySet(cm.Data)), fldPath.Child("data"), seen)
		checkKeys(sets.List(sets.KeySet(cm.BinaryData)), fldPath.Child("binaryData"), seen)
		for k, v := range cm.Data {
			size += len(k) + len(v)
		}
		for k, v := range cm.BinaryData {
			size += len(k) + len(v)
		}
	}
	if s := res.Secret; s != nil {
		checkKeys(sets.List(sets.KeySet(s.Data)), fldPath.Child("data"), seen)
		// stringData is merged into data by kube-apiserver: a key in both is allowed
		// there (stringData wins), so it gets its own set here.
		checkKeys(sets.List(sets.KeySet(s.StringData)), fldPath.Child("stringData"), sets.New[string]())
		for k, v := range s.Data {
			size += len(k) + len(v)
		}
		for k, v := range s.StringData {
			size += len(k) + len(v)
		}
	}
	if size > maxDistributedBytes {
		allErrs = append(allErrs, field.TooLong(fldPath.Child("data"), "", maxDistributedBytes))
	}
	return res, allErrs
}

// validateDistributionTargets checks namespace names, that no namespace is both
// included and excluded (ambiguous, OpenKruise refuses it), that Kruise Native's own
// namespace is not included, and the label selector.
func validateDistributionTargets(t *apps.ResourceDistributionTargets, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	names := func(list []apps.ResourceDistributionNamespace, p *field.Path) sets.Set[string] {
		seen := sets.New[string]()
		for i, ns := range list {
			np := p.Index(i).Child("name")
			switch {
			case ns.Name == "":
				allErrs = append(allErrs, field.Required(np, ""))
			case seen.Has(ns.Name):
				allErrs = append(allErrs, field.Duplicate(np, ns.Name))
			default:
				for _, msg := range apimachineryvalidation.ValidateNamespaceName(ns.Name, false) {
					allErrs = append(allErrs, field.Invalid(np, ns.Name, msg))
				}
			}
			seen.Insert(ns.Name)
		}
		return seen
	}
	includedPath := fldPath.Child("includedNamespaces", "list")
	included := names(t.IncludedNamespaces.List, includedPath)
	// Selected by a selector or allNamespaces it is skipped; named, it is refused, so
	// that nobody believes a copy went there.
	for i, ns := range t.IncludedNamespaces.List {
		if ns.Name == resourcedistribution.SystemNamespace {
			allErrs = append(allErrs, field.Forbidden(includedPath.Index(i).Child("name"),
				ns.Name+" is the namespace Kruise Native runs in: it never gets a copy"))
		}
	}
	excludedPath := fldPath.Child("excludedNamespaces", "list")
	names(t.ExcludedNamespaces.List, excludedPath)
	for i, ns := range t.ExcludedNamespaces.List {
		if ns.Name != "" && included.Has(ns.Name) {
			allErrs = append(allErrs, field.Invalid(excludedPath.Index(i).Child("name"), ns.Name,
				"is also in includedNamespaces: a namespace cannot be both included and excluded"))
		}
	}
	allErrs = append(allErrs, metav1validation.ValidateLabelSelector(&t.NamespaceLabelSelector,
		metav1validation.LabelSelectorValidationOptions{}, fldPath.Child("namespaceLabelSelector"))...)
	return allErrs
}
