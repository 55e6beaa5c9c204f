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

func cloneSet(name, protection string, replicas int32) *apps.CloneSet {
	cs := &apps.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}}
	if protection != "" {
		cs.Labels = map[string]string{pub.DeletionProtectionKey: protection}
	}
	cs.Spec.Replicas = ptr.To(replicas)
	return cs
}

// daemonSet has no replicas: what it runs is in its status.
func daemonSet(protection string, scheduled int32) *apps.DaemonSet {
	return &apps.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "ns", Labels: map[string]string{pub.DeletionProtectionKey: protection}},
		Status:     apps.DaemonSetStatus{DesiredNumberScheduled: scheduled, CurrentNumberScheduled: scheduled},
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		obj  runtime.Object
		// attrName is the name in the request: empty for each item of a deletecollection
		attrName string
		want     string // fragment of the refusal; "" = allowed
	}{
		{"unprotected", cloneSet("web", "", 3), "web", ""},
		{"Always", cloneSet("web", pub.DeletionProtectionTypeAlways, 0), "web", `clonesets.apps.kruise.io "web" is forbidden: forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Always: `},
		{"Cascading with replicas", cloneSet("web", pub.DeletionProtectionTypeCascading, 2), "web", "while spec.replicas is 2"},
		{"Cascading at zero", cloneSet("web", pub.DeletionProtectionTypeCascading, 0), "web", ""},
		{"Cascading DaemonSet with pods", daemonSet(pub.DeletionProtectionTypeCascading, 3), "agent", "status.desiredNumberScheduled"},
		{"Cascading DaemonSet on no node", daemonSet(pub.DeletionProtectionTypeCascading, 0), "agent", ""},
		{"item of a deletecollection is named", cloneSet("web", pub.DeletionProtectionTypeAlways, 0), "", `clonesets.apps.kruise.io "web" is forbidden`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			kind, resource := "CloneSet", "clonesets"
			if _, ok := tc.obj.(*apps.DaemonSet); ok {
				kind, resource = "DaemonSet", "daemonsets"
			}
			attrs := admission.NewAttributesRecord(nil, tc.obj, apps.Kind(kind).WithVersion(""), "ns", tc.attrName,
				apps.Resource(resource).WithVersion(""), "", admission.Delete, &metav1.DeleteOptions{}, false, nil)
			err := New(kinds.ActivePods).Validate(context.Background(), attrs, nil)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "Unknown") {
				t.Fatalf("error %v, want 403 containing %q (and no \"Unknown\")", err, tc.want)
			}
		})
	}
}
