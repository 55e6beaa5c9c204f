// Package resourcedistribution is the ResourceDistribution contract shared by the
// server's validation and the controller: which resources may be distributed, how the
// embedded resource is read, and how a copy is marked as made by a distribution.
package resourcedistribution

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"
)

// Supported kinds: OpenKruise distributes v1 Secrets and ConfigMaps only.
const (
	KindConfigMap = "ConfigMap"
	KindSecret    = "Secret"
)

// SupportedKinds are the kinds spec.resource may have, in the order messages list them.
var SupportedKinds = []string{KindConfigMap, KindSecret}

// Resource is the decoded spec.resource: exactly one of ConfigMap and Secret is set.
type Resource struct {
	ConfigMap *corev1.ConfigMap
	Secret    *corev1.Secret
}

// Kind is ConfigMap or Secret.
func (r *Resource) Kind() string {
	if r.Secret != nil {
		return KindSecret
	}
	return KindConfigMap
}

// Meta is the resource's metadata.
func (r *Resource) Meta() *metav1.ObjectMeta {
	if r.Secret != nil {
		return &r.Secret.ObjectMeta
	}
	return &r.ConfigMap.ObjectMeta
}

// Decode reads spec.resource (raw JSON) as a v1 ConfigMap or Secret. Unknown fields are
// errors, so that a typo is refused rather than silently dropped from every copy.
// Errors are reported under fldPath (spec.resource).
func Decode(raw []byte, fldPath *field.Path) (*Resource, field.ErrorList) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, field.ErrorList{field.Required(fldPath, "a v1 ConfigMap or Secret to distribute")}
	}
	var tm metav1.TypeMeta
	if err := json.Unmarshal(raw, &tm); err != nil {
		return nil, field.ErrorList{field.Invalid(fldPath, "", fmt.Sprintf("not a JSON object: %v", err))}
	}
	var errs field.ErrorList
	if tm.APIVersion != "v1" {
		errs = append(errs, field.NotSupported(fldPath.Child("apiVersion"), tm.APIVersion, []string{"v1"}))
	}
	var target any
	r := &Resource{}
	switch tm.Kind {
	case KindConfigMap:
		r.ConfigMap = &corev1.ConfigMap{}
		target = r.ConfigMap
	case KindSecret:
		r.Secret = &corev1.Secret{}
		target = r.Secret
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("kind"), tm.Kind, SupportedKinds))
	}
	if len(errs) > 0 {
		return nil, errs
	}
	strict, err := sigsjson.UnmarshalStrict(raw, target, sigsjson.DisallowUnknownFields)
	if err != nil {
		return nil, field.ErrorList{field.Invalid(fldPath, "", fmt.Sprintf("not a valid %s: %v", tm.Kind, err))}
	}
	for _, e := range strict {
		errs = append(errs, field.Invalid(fldPath, "", fmt.Sprintf("not a valid %s: %v", tm.Kind, e)))
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return r, nil
}

// Hash is the hash a copy carries in HashAnnotation: the sha256 of spec.resource as
// stored, as OpenKruise computes it. A copy whose hash differs was made from an older
// source and is rewritten.
func Hash(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// CopyLabel marks every copy a distribution makes (besides OpenKruise's annotations
// and the controller reference): the controller caches only objects carrying it, not
// every Secret and ConfigMap of the cluster. Ownership is decided by the controller
// reference alone: the label only scopes the cache.
const CopyLabel = "apps.kruise.io/resourcedistribution-copy"

// SystemNamespace is the namespace Kruise Native runs in (artifacts/deploy, the Helm
// chart and the local stack all use it). It holds the components' ServiceAccounts,
// leader-election Leases and SidecarSet revisions: a Secret or ConfigMap written there
// by a distribution could shadow or feed what kruise-native itself reads.
const SystemNamespace = "kruise-system"

// NeverTargets never get a copy, whatever the targets say: the cluster's own
// namespaces are not the tenants' to fill (kube-system and kube-public: OpenKruise's
// rule; named in includedNamespaces they are accepted with a warning, as there), nor
// is Kruise Native's own (SystemNamespace: validation refuses to name it).
var NeverTargets = []string{metav1.NamespaceSystem, metav1.NamespacePublic, SystemNamespace}
