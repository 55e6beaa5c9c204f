package podwebhookscope

import (
	"context"
	"errors"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// widens records the clauses the plugin asked for.
type widens struct {
	keys []string
	err  error
}

func (w *widens) Widen(_ context.Context, key, _ string) error {
	w.keys = append(w.keys, key)
	return w.err
}

func TestValidate(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	ss := &apps.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "logs"}, Spec: apps.SidecarSetSpec{Selector: sel}}
	paused := ss.DeepCopy()
	paused.Spec.InjectionStrategy.Paused = true
	ws := &apps.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Name: "ws", Namespace: "ns"}}
	cases := map[string]struct {
		obj         runtime.Object
		resource    string
		subresource string
		dryRun      bool
		widenErr    error
		wantKeys    []string
		wantCode    int32
	}{
		"SidecarSet":          {obj: ss, resource: "sidecarsets", wantKeys: []string{"sidecarset/logs"}},
		"WorkloadSpread":      {obj: ws, resource: "workloadspreads", wantKeys: []string{"workloadspread/ns"}},
		"paused SidecarSet":   {obj: paused, resource: "sidecarsets"},
		"dry run":             {obj: ss, resource: "sidecarsets", dryRun: true},
		"status":              {obj: ss, resource: "sidecarsets", subresource: "status"},
		"other kind":          {obj: &apps.CloneSet{}, resource: "clonesets"},
		"registration failed": {obj: ss, resource: "sidecarsets", widenErr: errors.New("forbidden"), wantKeys: []string{"sidecarset/logs"}, wantCode: 503},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := &widens{err: tc.widenErr}
			p := New()
			p.SetPodWebhookScope(w)
			if err := p.ValidateInitialization(); err != nil {
				t.Fatal(err)
			}
			attrs := admission.NewAttributesRecord(tc.obj, nil, apps.SchemeGroupVersion.WithKind("X"), "", "n",
				apps.Resource(tc.resource).WithVersion("v1beta1"), tc.subresource, admission.Create, &metav1.CreateOptions{}, tc.dryRun, nil)
			err := p.Validate(context.Background(), attrs, nil)
			if code := codeOf(err); code != tc.wantCode {
				t.Fatalf("code %d (%v), want %d", code, err, tc.wantCode)
			}
			if len(w.keys) != len(tc.wantKeys) || (len(w.keys) > 0 && w.keys[0] != tc.wantKeys[0]) {
				t.Errorf("widened %v, want %v", w.keys, tc.wantKeys)
			}
		})
	}
}

// Without a Pod webhook the plugin is given nil and does nothing; never given
// anything, it stops the server from starting.
func TestInitialization(t *testing.T) {
	p := New()
	if err := p.ValidateInitialization(); err == nil {
		t.Error("not initialized: want an error")
	}
	p.SetPodWebhookScope(nil)
	if err := p.ValidateInitialization(); err != nil {
		t.Errorf("no Pod webhook: %v", err)
	}
	ss := &apps.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "logs"}, Spec: apps.SidecarSetSpec{
		Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	attrs := admission.NewAttributesRecord(ss, nil, apps.SchemeGroupVersion.WithKind("SidecarSet"), "", "logs",
		apps.Resource("sidecarsets").WithVersion("v1beta1"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	if err := p.Validate(context.Background(), attrs, nil); err != nil {
		t.Errorf("no Pod webhook: %v", err)
	}
}

func codeOf(err error) int32 {
	if err == nil {
		return 0
	}
	var s apierrors.APIStatus
	if errors.As(err, &s) {
		return s.Status().Code
	}
	return -1
}
