package validation

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/install"
)

// scheme knows the internal types and every served version, with their
// conversions and defaulters.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

// toInternal converts a defaulted versioned object into the internal object out.
func toInternal(t *testing.T, in, out runtime.Object) {
	t.Helper()
	if err := scheme.Convert(in, out, nil); err != nil {
		t.Fatalf("converting %T to %T: %v", in, out, err)
	}
}

// wantErr is one expected validation error: its type and its exact field path, and
// optionally a fragment of its detail.
type wantErr struct {
	Type   field.ErrorType
	Field  string
	Detail string
}

func (w wantErr) String() string {
	if w.Detail == "" {
		return fmt.Sprintf("%s %s", w.Type, w.Field)
	}
	return fmt.Sprintf("%s %s (%q)", w.Type, w.Field, w.Detail)
}

// invalid, required, ... build wantErr values tersely.
func invalid(path string, detail ...string) wantErr {
	return wantErr{Type: field.ErrorTypeInvalid, Field: path, Detail: strings.Join(detail, "")}
}
func required(path string) wantErr { return wantErr{Type: field.ErrorTypeRequired, Field: path} }
func forbidden(path string, detail ...string) wantErr {
	return wantErr{Type: field.ErrorTypeForbidden, Field: path, Detail: strings.Join(detail, "")}
}
func notSupported(path string) wantErr {
	return wantErr{Type: field.ErrorTypeNotSupported, Field: path}
}
func duplicate(path string) wantErr { return wantErr{Type: field.ErrorTypeDuplicate, Field: path} }
func notFound(path string) wantErr  { return wantErr{Type: field.ErrorTypeNotFound, Field: path} }
func tooLong(path string) wantErr   { return wantErr{Type: field.ErrorTypeTooLong, Field: path} }

// expectErrors fails unless errs are exactly want (in any order): same count, and
// each error with the wanted type, field path and detail fragment.
func expectErrors(t *testing.T, errs field.ErrorList, want ...wantErr) {
	t.Helper()
	var got []string
	for _, e := range errs {
		got = append(got, fmt.Sprintf("%s %s: %s", e.Type, e.Field, e.Detail))
	}
	sort.Strings(got)
	if len(errs) != len(want) {
		t.Fatalf("want %d error(s) %v, got %d:\n  %s", len(want), want, len(errs), strings.Join(got, "\n  "))
	}
	used := make([]bool, len(errs))
next:
	for _, w := range want {
		for i, e := range errs {
			if used[i] || e.Type != w.Type || e.Field != w.Field || !strings.Contains(e.Detail, w.Detail) {
				continue
			}
			used[i] = true
			continue next
		}
		t.Errorf("missing error %v; got:\n  %s", w, strings.Join(got, "\n  "))
	}
}

// podTemplate returns a pod template with the given labels and one container, as
// kube defaulting leaves it.
func podTemplate(labels map[string]string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name:  "nginx",
				Image: "nginx:alpine",
				Ports: []corev1.ContainerPort{{Name: "web", ContainerPort: 80}},
			}},
		},
	}
}

// claimTemplate returns a valid volume claim template of the given size.
func claimTemplate(name, size string) corev1.PersistentVolumeClaim {
	return corev1.PersistentVolumeClaim{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
			Resources: corev1.VolumeResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)},
			},
		},
	}
}

func ptrIntStr(v intstr.IntOrString) *intstr.IntOrString { return &v }
func intOrStr(i int32) *intstr.IntOrString               { return ptrIntStr(intstr.FromInt32(i)) }
func strOrStr(s string) *intstr.IntOrString              { return ptrIntStr(intstr.FromString(s)) }
func int32p(i int32) *int32                              { return &i }
