package noderestriction

import (
	"context"
	"strings"
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

// crrWith is a request on node-a after edit.
func crrWith(edit func(*apps.ContainerRecreateRequest)) *apps.ContainerRecreateRequest {
	c := crrOn("node-a")
	c.Labels[v1alpha1.ContainerRecreateRequestActiveKey] = "true"
	c.Spec = apps.ContainerRecreateRequestSpec{PodName: "web", Containers: []apps.ContainerRecreateRequestContainer{{Name: "app"}}}
	c.Status.Phase = apps.ContainerRecreateRequestPhase(v1alpha1.ContainerRecreateRequestRecreating)
	c.Status.ContainerRecreateStates = []apps.ContainerRecreateRequestContainerRecreateState{{Name: "app", Phase: "Pending"}}
	if edit != nil {
		edit(c)
	}
	return c
}

func phase(p string) func(*apps.ContainerRecreateRequest) {
	return func(c *apps.ContainerRecreateRequest) { c.Status.Phase = apps.ContainerRecreateRequestPhase(p) }
}

// The daemon of a request's node writes only its own fields of the request: container
// states, status contexts and the phase moves that are its own.
func TestValidateRecreateRequestFields(t *testing.T) {
	stored := crrWith(nil)
	cases := []struct {
		name        string
		subresource string
		old, obj    *apps.ContainerRecreateRequest
		forbidden   string // substring of the refusal; "" for allowed
	}{
		{"container states", "status", stored, crrWith(func(c *apps.ContainerRecreateRequest) {
			c.Status.ContainerRecreateStates[0].Phase, c.Status.ContainerRecreateStates[0].IsKilled = "Recreating", true
		}), ""},
		{"taking a Pending request", "status", crrWith(phase("Pending")), crrWith(nil), ""},
		{"taking a request before the controller marked it Pending", "status", crrWith(phase("")), crrWith(nil), ""},
		{"status contexts", "", stored, crrWith(func(c *apps.ContainerRecreateRequest) {
			c.Spec.Containers[0].StatusContext = &apps.ContainerRecreateRequestContainerContext{ContainerID: "c://1"}
		}), ""},
		{"completing the request", "status", stored, crrWith(phase("Completed")), `status.phase ("Recreating" to "Completed")`},
		{"failing the request", "status", stored, crrWith(phase("Failed")), `status.phase ("Recreating" to "Failed")`},
		{"marking it Pending", "status", crrWith(phase("")), crrWith(phase("Pending")), `status.phase ("" to "Pending")`},
		{"reviving a failed request", "status", crrWith(phase("Failed")), crrWith(nil), `status.phase ("Failed" to "Recreating")`},
		{"the message", "status", stored, crrWith(func(c *apps.ContainerRecreateRequest) { c.Status.Message = "done" }), "status.message"},
		{"the completion time", "status", stored, crrWith(func(c *apps.ContainerRecreateRequest) {
			c.Status.CompletionTime = &metav1.Time{}
		}), "status.completionTime"},
		{"dropping the active label", "", stored, crrWith(func(c *apps.ContainerRecreateRequest) {
			delete(c.Labels, v1alpha1.ContainerRecreateRequestActiveKey)
		}), "metadata.labels"},
		{"the unready-acquired annotation", "", stored, crrWith(func(c *apps.ContainerRecreateRequest) {
			c.Annotations = map[string]string{v1alpha1.ContainerRecreateRequestUnreadyAcquiredKey: "now"}
		}), "metadata.annotations"},
		{"a finalizer", "", stored, crrWith(func(c *apps.ContainerRecreateRequest) { c.Finalizers = []string{"x"} }), "metadata.finalizers"},
		{"the spec", "", stored, crrWith(func(c *apps.ContainerRecreateRequest) { c.Spec.PodName = "other" }), "spec (other than"},
	}
	p := New()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := admission.NewAttributesRecord(tc.obj, tc.old, apps.Kind("ContainerRecreateRequest").WithVersion("v1alpha1"), "ns", "crr",
				apps.Resource("containerrecreaterequests").WithVersion("v1alpha1"), tc.subresource, admission.Update, nil, false, daemonOf("node-a"))
			err := p.Validate(context.Background(), a, nil)
			if tc.forbidden == "" {
				if err != nil {
					t.Fatalf("want allowed, got %v", err)
				}
				return
			}
			if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), tc.forbidden) {
				t.Fatalf("want 403 Forbidden naming %q, got %v", tc.forbidden, err)
			}
			// kruise-controller may write it all
			a = admission.NewAttributesRecord(tc.obj, tc.old, apps.Kind("ContainerRecreateRequest").WithVersion("v1alpha1"), "ns", "crr",
				apps.Resource("containerrecreaterequests").WithVersion("v1alpha1"), tc.subresource, admission.Update, nil, false,
				&user.DefaultInfo{Name: "system:serviceaccount:kruise-system:kruise-controller"})
			if err := p.Validate(context.Background(), a, nil); err != nil {
				t.Errorf("kruise-controller refused: %v", err)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	ni := &apps.NodeImage{ObjectMeta: metav1.ObjectMeta{Name: "node-b"}}
	npp := &apps.NodePodProbe{ObjectMeta: metav1.ObjectMeta{Name: "node-b"}}
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
		{"daemon updates its own NodePodProbe status", daemonOf("node-a"), admission.Update, "nodepodprobes", "status", "node-a", npp, npp, true},
		{"daemon updates another node's NodePodProbe status", daemonOf("node-a"), admission.Update, "nodepodprobes", "status", "node-b", npp, npp, false},
		{"daemon updates its NodePodProbe spec", daemonOf("node-a"), admission.Update, "nodepodprobes", "", "node-a", npp, npp, false},
		{"daemon creates a NodePodProbe", daemonOf("node-a"), admission.Create, "nodepodprobes", "", "node-a", npp, nil, false},
		{"daemon writes a PodProbeMarker", daemonOf("node-a"), admission.Create, "podprobemarkers", "", "ppm", &apps.PodProbeMarker{}, nil, false},
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
