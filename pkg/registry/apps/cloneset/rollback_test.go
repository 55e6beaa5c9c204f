package cloneset_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/cloneset"
	"github.com/kruise-native/kruise-native/pkg/registry/registrytest"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/revisiondata"
)

// validCloneSet is a CloneSet as the registry receives it: decoded from v1alpha1 and defaulted.
func validCloneSet() *apps.CloneSet {
	in := &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: "cs", Namespace: metav1.NamespaceDefault},
		Spec: v1alpha1.CloneSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "cs"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "cs"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:alpine"}}},
			},
		},
	}
	scheme.Scheme.Default(in)
	out := &apps.CloneSet{}
	if err := scheme.Scheme.Convert(in, out, nil); err != nil {
		panic(err)
	}
	return out
}

func ctxFor(ns string) context.Context { return registrytest.Ctx(ns) }

// Rollback restores the template a ControllerRevision holds; 0 means the previous
// revision; unknown revisions are a 400 listing the ones that exist.
func TestRollback(t *testing.T) {
	var revisions []appsv1.ControllerRevision
	s := registrytest.Endpoints(t, cloneset.Kind, resource.Deps{
		Revisions: func(context.Context, string) ([]appsv1.ControllerRevision, error) { return revisions, nil },
	})
	ctx := ctxFor(metav1.NamespaceDefault)
	obj, err := s.Main.Create(ctx, validCloneSet(), rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cs := obj.(*apps.CloneSet)
	revisionOf := func(number int64, image string) appsv1.ControllerRevision {
		tmpl := cs.Spec.Template.DeepCopy()
		tmpl.Spec.Containers[0].Image = image
		data, err := revisiondata.Encode(tmpl)
		if err != nil {
			t.Fatal(err)
		}
		return appsv1.ControllerRevision{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cs-%d", number), Namespace: cs.Namespace,
				OwnerReferences: []metav1.OwnerReference{{UID: cs.UID, Controller: ptr.To(true), Name: cs.Name, Kind: "CloneSet"}}},
			Revision: number,
			Data:     runtime.RawExtension{Raw: data},
		}
	}
	other := revisionOf(7, "not-ours")
	other.OwnerReferences[0].UID = "someone-else"
	revisions = []appsv1.ControllerRevision{revisionOf(2, "nginx:2"), other, revisionOf(1, "nginx:1"), revisionOf(3, "nginx:alpine")}

	_, err = s.Rollback.Create(ctx, cs.Name, &apps.CloneSetRollback{ToRevision: 9}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if !apierrors.IsBadRequest(err) || !strings.Contains(err.Error(), "available revisions: 1, 2, 3") {
		t.Fatalf("unknown revision: %v, want 400 listing 1, 2, 3", err)
	}
	_, err = s.Rollback.Create(ctx, cs.Name, &apps.CloneSetRollback{Name: "other", ToRevision: 1}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
	if !apierrors.IsInvalid(err) {
		t.Fatalf("name not matching the URL: %v, want 422", err)
	}
	for _, tc := range []struct {
		to   int64
		want string
	}{{0, "nginx:2"}, {1, "nginx:1"}} {
		out, err := s.Rollback.Create(ctx, cs.Name, &apps.CloneSetRollback{ToRevision: tc.to}, rest.ValidateAllObjectFunc, &metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("rollback to %d: %v", tc.to, err)
		}
		if img := out.(*apps.CloneSet).Spec.Template.Spec.Containers[0].Image; img != tc.want {
			t.Fatalf("rollback to %d: image %s, want %s", tc.to, img, tc.want)
		}
	}
}
