package podstodelete

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/warning"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

func pod(name string, owner types.UID, deleting bool) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns"}}
	if owner != "" {
		yes := true
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps.kruise.io/v1beta1", Kind: "CloneSet", Name: "owner", UID: owner, Controller: &yes}}
	}
	if deleting {
		now := metav1.Now()
		p.DeletionTimestamp = &now
	}
	return p
}

func cloneSet(podsToDelete ...string) *apps.CloneSet {
	cs := &apps.CloneSet{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns", UID: "uid-web"}}
	cs.Spec.Replicas = new(int32(3))
	cs.Spec.ScaleStrategy.PodsToDelete = podsToDelete
	return cs
}

// scaledDown is cloneSet with replicas lowered by one per name, as kubectl kruise
// scaledown patches it.
func scaledDown(podsToDelete ...string) *apps.CloneSet {
	cs := cloneSet(podsToDelete...)
	*cs.Spec.Replicas -= int32(len(podsToDelete))
	return cs
}

func TestValidate(t *testing.T) {
	kube := fake.NewClientset(
		pod("web-a", "uid-web", false),
		pod("web-b", "uid-web", false),
		pod("other-a", "uid-other", false),
		pod("orphan", "", false),
		pod("web-going", "uid-web", true),
	)
	cases := []struct {
		name     string
		op       admission.Operation
		sub      string
		old, new runtime.Object
		// want are fragments of the 422's message; none: admitted
		want []string
		// warnings are fragments of the warnings an admitted update gets, in order
		warnings []string
	}{
		{name: "own pods added", op: admission.Update, old: cloneSet(), new: cloneSet("web-a", "web-b")},
		{name: "no change", op: admission.Update, old: cloneSet("web-a"), new: cloneSet("web-a")},
		{name: "names removed", op: admission.Update, old: cloneSet("web-a", "gone"), new: cloneSet("web-a")},
		// A pod listed before may be gone now; only additions are judged.
		{name: "listed name of a gone pod kept", op: admission.Update, old: cloneSet("gone"), new: cloneSet("gone", "web-b")},
		// A GitOps tool applies its manifest again after the controller dropped the
		// names of the pods it deleted: admitted, with a warning.
		{name: "no such pod", op: admission.Update, old: cloneSet(), new: cloneSet("web-a", "nope"),
			warnings: []string{`spec.scaleStrategy.podsToDelete[1]: "nope": no such pod in the CloneSet's namespace`}},
		{name: "another workload's pod", op: admission.Update, old: cloneSet(), new: cloneSet("other-a"),
			want: []string{`spec.scaleStrategy.podsToDelete[0]: Invalid value: "other-a": the pod is not controlled by this CloneSet`}},
		{name: "orphan pod", op: admission.Update, old: cloneSet(), new: cloneSet("orphan"),
			want: []string{`podsToDelete[0]: Invalid value: "orphan": the pod is not controlled by this CloneSet`}},
		{name: "terminating pod", op: admission.Update, old: cloneSet(), new: cloneSet("web-going"),
			warnings: []string{`podsToDelete[0]: "web-going": the pod is being deleted already`}},
		// Lowering replicas with a name of no pod would remove another pod than meant.
		{name: "scaledown naming no pod", op: admission.Update, old: cloneSet(), new: scaledDown("web-a", "nope"),
			want: []string{`CloneSet.apps.kruise.io "web" is invalid`, `spec.scaleStrategy.podsToDelete[1]: Invalid value: "nope": no such pod in the CloneSet's namespace`}},
		{name: "scaledown naming a terminating pod", op: admission.Update, old: cloneSet(), new: scaledDown("web-going"),
			want: []string{`podsToDelete[0]: Invalid value: "web-going": the pod is being deleted already`}},
		{name: "scaledown of own pods", op: admission.Update, old: cloneSet(), new: scaledDown("web-a", "web-b")},
		{name: "every bad name reported", op: admission.Update, old: cloneSet("web-a"), new: cloneSet("web-a", "orphan", "other-a"),
			want: []string{`podsToDelete[1]: Invalid value: "orphan"`, `podsToDelete[2]: Invalid value: "other-a"`}},
		{name: "status subresource not judged", op: admission.Update, sub: "status", old: cloneSet(), new: cloneSet("nope")},
		{name: "create not judged", op: admission.Create, new: cloneSet("nope")},
	}
	p := New()
	p.SetExternalKubeClientSet(kube)
	if err := p.ValidateInitialization(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !p.Handles(tc.op) {
				if len(tc.want) > 0 {
					t.Fatalf("plugin does not handle %s", tc.op)
				}
				return
			}
			attrs := admission.NewAttributesRecord(tc.new, tc.old, apps.Kind("CloneSet").WithVersion(""), "ns", "web",
				apps.Resource("clonesets").WithVersion(""), tc.sub, tc.op, &metav1.UpdateOptions{}, false, nil)
			rec := &warnings{}
			err := p.Validate(warning.WithWarningRecorder(context.Background(), rec), attrs, nil)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if len(rec.texts) != len(tc.warnings) {
					t.Fatalf("warnings %q, want %d matching %q", rec.texts, len(tc.warnings), tc.warnings)
				}
				for i, w := range tc.warnings {
					if !strings.Contains(rec.texts[i], w) {
						t.Errorf("warning %q lacks %q", rec.texts[i], w)
					}
				}
				return
			}
			if !apierrors.IsInvalid(err) {
				t.Fatalf("error %v, want 422 Invalid", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

type warnings struct{ texts []string }

func (w *warnings) AddWarning(_, text string) { w.texts = append(w.texts, text) }

// Without a kube client the server refuses to start rather than admit every name.
func TestNeedsKubeClient(t *testing.T) {
	if err := New().ValidateInitialization(); err == nil {
		t.Fatal("initialized without a kube client")
	}
}
