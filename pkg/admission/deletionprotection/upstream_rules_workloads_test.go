package deletionprotection

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/registry/kinds"
)

// TestUpstreamRulesWorkloadDeletion: the DELETE branch of OpenKruise's CloneSet,
// Advanced StatefulSet and UnitedDeployment webhooks
// (pkg/webhook/<kind>/validating/<kind>_create_update_handler.go:Handle, calling
// pkg/webhook/util/deletionprotection ValidateWorkloadDeletion): a workload labelled
// Always is never deleted, one labelled Cascading not while spec.replicas > 0.
func TestUpstreamRulesWorkloadDeletion(t *testing.T) {
	labels := func(p string) map[string]string { return map[string]string{pub.DeletionProtectionKey: p} }
	meta := func(p string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Name: "w", Namespace: "ns", Labels: labels(p)}
	}
	cloneSet := func(p string, n int32) runtime.Object {
		return &apps.CloneSet{ObjectMeta: meta(p), Spec: apps.CloneSetSpec{Replicas: ptr.To(n)}}
	}
	statefulSet := func(p string, n int32) runtime.Object {
		return &apps.StatefulSet{ObjectMeta: meta(p), Spec: apps.StatefulSetSpec{Replicas: ptr.To(n)}}
	}
	unitedDeployment := func(p string, n int32) runtime.Object {
		return &apps.UnitedDeployment{ObjectMeta: meta(p), Spec: apps.UnitedDeploymentSpec{Replicas: ptr.To(n)}}
	}
	const always, cascading = pub.DeletionProtectionTypeAlways, pub.DeletionProtectionTypeCascading
	cases := []struct {
		upstream       string
		kind, resource string
		obj            runtime.Object
		want           string
	}{
		{"cloneset/validating/cloneset_create_update_handler.go:Handle (delete): Always", "CloneSet", "clonesets",
			cloneSet(always, 0), "policy.kruise.io/delete-protection=Always"},
		{"cloneset/validating/cloneset_create_update_handler.go:Handle (delete): Cascading with replicas", "CloneSet", "clonesets",
			cloneSet(cascading, 2), "spec.replicas is 2"},
		{"statefulset/validating/statefulset_create_update_handler.go:Handle (delete): Always", "StatefulSet", "statefulsets",
			statefulSet(always, 0), "policy.kruise.io/delete-protection=Always"},
		{"statefulset/validating/statefulset_create_update_handler.go:Handle (delete): Cascading with replicas", "StatefulSet", "statefulsets",
			statefulSet(cascading, 3), "spec.replicas is 3"},
		{"uniteddeployment/validating/uniteddeployment_create_update_handler.go:Handle (delete): Always", "UnitedDeployment", "uniteddeployments",
			unitedDeployment(always, 0), "policy.kruise.io/delete-protection=Always"},
		{"uniteddeployment/validating/uniteddeployment_create_update_handler.go:Handle (delete): Cascading with replicas", "UnitedDeployment", "uniteddeployments",
			unitedDeployment(cascading, 4), "spec.replicas is 4"},
	}
	for _, tc := range cases {
		t.Run(tc.upstream, func(t *testing.T) {
			attrs := admission.NewAttributesRecord(nil, tc.obj, apps.Kind(tc.kind).WithVersion(""), "ns", "w",
				apps.Resource(tc.resource).WithVersion(""), "", admission.Delete, &metav1.DeleteOptions{}, false, nil)
			err := New(kinds.ActivePods).Validate(context.Background(), attrs, nil)
			if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want 403 containing %q", err, tc.want)
			}
		})
	}
}
