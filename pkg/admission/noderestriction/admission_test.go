package noderestriction

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

func daemonOf(node string) user.Info {
	u := &user.DefaultInfo{Name: "system:serviceaccount:kruise-system:kruise-node-daemon"}
	if node != "" {
		u.Extra = map[string][]string{"authentication.kubernetes.io/node-name": {node}}
	}
	return u
}

func crrOn(node string) *apps.ContainerRecreateRequest {
	return &apps.ContainerRecreateRequest{ObjectMeta: metav1.ObjectMeta{Name: "crr", Namespace: "ns",
		Labels: map[string]string{v1alpha1.ContainerRecreateRequestNodeNameKey: node}}}
}

func TestValidate(t *testing.T) {
	ni := &apps.NodeImage{ObjectMeta: metav1.ObjectMeta{Name: "node-b"}}
	cases := []struct {
		name        string
		user        user.Info
		op          admission.Operation
		resource    string
		subresource string
		objName     string
		obj, old    runtime.Object
		allowed     bool
	}{
		{"daemon updates its own NodeImage status", daemonOf("node-a"), admission.Update, "nodeimages", "status", "node-a", ni, ni, true},
		{"daemon updates another node's NodeImage status", daemonOf("node-a"), admission.Update, "nodeimages", "status", "node-b", ni, ni, false},
		{"daemon updates its NodeImage spec", daemonOf("node-a"), admission.Update, "nodeimages", "", "node-a", ni, ni, false},
		{"daemon deletes its NodeImage", daemonOf("node-a"), admission.Delete, "nodeimages", "", "node-a", nil, ni, false},
		{"daemon without a node", daemonOf(""), admission.Update, "nodeimages", "status", "node-a", ni, ni, false},
		{"daemon updates a request on its node", daemonOf("node-a"), admission.Update, "containerrecreaterequests", "status", "crr", crrOn("node-a"), crrOn("node-a"), true},
		{"daemon relabels another node's request", daemonOf("node-a"), admission.Update, "containerrecreaterequests", "", "crr", crrOn("node-a"), crrOn("node-b"), false},
		{"daemon creates a request", daemonOf("node-a"), admission.Create, "containerrecreaterequests", "", "crr", crrOn("node-a"), nil, false},
		{"daemon writes a CloneSet", daemonOf("node-a"), admission.Create, "clonesets", "", "cs", &apps.CloneSet{}, nil, false},
		{"controller writes any NodeImage", &user.DefaultInfo{Name: "system:serviceaccount:kruise-system:kruise-controller"}, admission.Update, "nodeimages", "", "node-b", ni, ni, true},
		{"admin deletes a request", &user.DefaultInfo{Name: "admin"}, admission.Delete, "containerrecreaterequests", "", "crr", nil, crrOn("node-b"), true},
	}
	p := New()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := admission.NewAttributesRecord(tc.obj, tc.old, apps.Kind("X").WithVersion("v1alpha1"), "ns", tc.objName,
				apps.Resource(tc.resource).WithVersion("v1alpha1"), tc.subresource, tc.op, nil, false, tc.user)
			err := p.Validate(context.Background(), a, nil)
			if tc.allowed && err != nil {
				t.Fatalf("want allowed, got %v", err)
			}
			if !tc.allowed && !apierrors.IsForbidden(err) {
				t.Fatalf("want 403 Forbidden, got %v", err)
			}
		})
	}
}
