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

// widens records the objects the plugin asked to widen for.
type widens struct {
	objs []runtime.Object
	err  error
}

func (w *widens) Widen(_ context.Context, obj runtime.Object) error {
	w.objs = append(w.objs, obj)
	return w.err
}

// The plugin hands the stored object of every create and update to the scope (which
// objects have clauses is podwebhook.ObjectCallClauses'), and refuses the write with
// 503 when the registration cannot be widened.
func TestValidate(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	ss := &apps.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "logs"}, Spec: apps.SidecarSetSpec{Selector: sel}}
	cases := map[string]struct {
		subresource string
		dryRun      bool
		widenErr    error
		wantWidened bool
		wantCode    int32
	}{
		"create":              {wantWidened: true},
		"dry run":             {dryRun: true},
		"status":              {subresource: "status"},
		"registration failed": {widenErr: errors.New("forbidden"), wantWidened: true, wantCode: 503},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w := &widens{err: tc.widenErr}
			p := New()
			p.SetPodWebhookScope(w)
			if err := p.ValidateInitialization(); err != nil {
				t.Fatal(err)
			}
			attrs := admission.NewAttributesRecord(ss, nil, apps.SchemeGroupVersion.WithKind("SidecarSet"), "", "logs",
				apps.Resource("sidecarsets").WithVersion("v1beta1"), tc.subresource, admission.Create, &metav1.CreateOptions{}, tc.dryRun, nil)
			err := p.Validate(context.Background(), attrs, nil)
			if code := codeOf(err); code != tc.wantCode {
				t.Fatalf("code %d (%v), want %d", code, err, tc.wantCode)
			}
			if widened := len(w.objs) == 1 && w.objs[0] == ss; widened != tc.wantWidened || len(w.objs) > 1 {
				t.Errorf("widened for %v, want the SidecarSet: %t", w.objs, tc.wantWidened)
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
