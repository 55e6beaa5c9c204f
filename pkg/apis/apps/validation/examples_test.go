package validation

import (
	"bytes"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/examples"
	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

// TestDocumentedExamplesAreValid decodes every documented CloneSet, Advanced
// StatefulSet and SidecarSet manifest into its versioned type, defaults and converts
// it as the API server does, and expects no validation error. Documents of other
// groups in the same file (the pods a SidecarSet injects into) are left out.
func TestDocumentedExamplesAreValid(t *testing.T) {
	var files []string
	for _, pattern := range []string{"cloneset-*.yaml", "advanced-statefulset*.yaml", "sidecarset*.yaml"} {
		matches, err := examples.Glob(pattern)
		if err != nil {
			t.Fatalf("glob %s: %v", pattern, err)
		}
		if len(matches) == 0 {
			t.Fatalf("no documented example matches %s in examples/", pattern)
		}
		files = append(files, matches...)
	}

	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			data, err := examples.Read(file)
			if err != nil {
				t.Fatalf("reading %s: %v", file, err)
			}
			for _, doc := range bytes.Split(data, []byte("\n---\n")) {
				var typeMeta metav1.TypeMeta
				if err := yaml.Unmarshal(doc, &typeMeta); err != nil {
					t.Fatalf("decoding apiVersion/kind: %v", err)
				}
				if typeMeta.GroupVersionKind().Group != apps.GroupName {
					continue
				}
				expectErrors(t, validateManifest(t, doc))
			}
		})
	}
}

// validateManifest decodes one manifest by its apiVersion and kind, defaults it,
// converts it to the internal type and validates it as a create.
func validateManifest(t *testing.T, data []byte) field.ErrorList {
	t.Helper()
	var typeMeta metav1.TypeMeta
	if err := yaml.Unmarshal(data, &typeMeta); err != nil {
		t.Fatalf("decoding apiVersion/kind: %v", err)
	}
	decode := func(into any) {
		if err := yaml.UnmarshalStrict(data, into); err != nil {
			t.Fatalf("decoding %s %s: %v", typeMeta.APIVersion, typeMeta.Kind, err)
		}
	}

	switch typeMeta.GroupVersionKind() {
	case v1alpha1.SchemeGroupVersion.WithKind("CloneSet"):
		v := &v1alpha1.CloneSet{}
		decode(v)
		v1alpha1.SetObjectDefaults_CloneSet(v)
		return validateCloneSetCreate(t, v)
	case v1beta1.SchemeGroupVersion.WithKind("CloneSet"):
		v := &v1beta1.CloneSet{}
		decode(v)
		v1beta1.SetObjectDefaults_CloneSet(v)
		return validateCloneSetCreate(t, v)
	case v1alpha1.SchemeGroupVersion.WithKind("StatefulSet"):
		v := &v1alpha1.StatefulSet{}
		decode(v)
		v1alpha1.SetObjectDefaults_StatefulSet(v)
		return validateStatefulSetCreate(t, v)
	case v1beta1.SchemeGroupVersion.WithKind("StatefulSet"):
		v := &v1beta1.StatefulSet{}
		decode(v)
		v1beta1.SetObjectDefaults_StatefulSet(v)
		return validateStatefulSetCreate(t, v)
	case v1alpha1.SchemeGroupVersion.WithKind("SidecarSet"):
		v := &v1alpha1.SidecarSet{}
		decode(v)
		v1alpha1.SetObjectDefaults_SidecarSet(v)
		ss := &apps.SidecarSet{}
		toInternal(t, v, ss)
		return ValidateSidecarSet(ss)
	}
	t.Fatalf("unexpected apiVersion %q kind %q", typeMeta.APIVersion, typeMeta.Kind)
	return nil
}

// versionedObject is a decoded versioned workload.
type versionedObject interface {
	runtime.Object
	metav1.Object
}

// The manifests rely on kubectl's namespace (most name none): the API server fills
// in the request namespace before validation, so do the same.
const requestNamespace = "default"

func validateCloneSetCreate(t *testing.T, v versionedObject) field.ErrorList {
	t.Helper()
	if v.GetNamespace() == "" {
		v.SetNamespace(requestNamespace)
	}
	cs := &apps.CloneSet{}
	toInternal(t, v, cs)
	return ValidateCloneSet(cs)
}

func validateStatefulSetCreate(t *testing.T, v versionedObject) field.ErrorList {
	t.Helper()
	if v.GetNamespace() == "" {
		v.SetNamespace(requestNamespace)
	}
	ss := &apps.StatefulSet{}
	toInternal(t, v, ss)
	return ValidateStatefulSet(ss)
}
