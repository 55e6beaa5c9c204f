package authzflight

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
)

// blockingInner counts calls and answers each once release is closed.
type blockingInner struct {
	calls   atomic.Int32
	release chan struct{}
	answer  func(n int32) (authorizer.Decision, string, error)
}

func (b *blockingInner) Authorize(ctx context.Context, _ authorizer.Attributes) (authorizer.Decision, string, error) {
	n := b.calls.Add(1)
	<-b.release
	return b.answer(n)
}

func webhookCall() authorizer.AttributesRecord {
	return authorizer.AttributesRecord{
		User: &user.DefaultInfo{Name: "kube-apiserver-webhook-client", Groups: []string{"system:authenticated"}},
		Verb: "post", Path: "/admission/mutate/pods",
	}
}

// runConcurrent calls Authorize n times at once and releases the inner authorizer
// only after all n have joined a flight.
func runConcurrent(t *testing.T, a *Authorizer, inner *blockingInner, n int, attrs authorizer.Attributes) []result {
	t.Helper()
	var joined sync.WaitGroup
	joined.Add(n)
	a.joined = joined.Done
	out := make([]result, n)
	var done sync.WaitGroup
	for i := range n {
		done.Add(1)
		go func() {
			defer done.Done()
			d, r, err := a.Authorize(context.Background(), attrs)
			out[i] = result{d, r, err}
		}()
	}
	joined.Wait()
	close(inner.release)
	done.Wait()
	a.joined = nil
	return out
}

func TestConcurrentIdenticalCallsMakeOneInnerCall(t *testing.T) {
	inner := &blockingInner{release: make(chan struct{}), answer: func(int32) (authorizer.Decision, string, error) {
		return authorizer.DecisionAllow, "RBAC: allowed", nil
	}}
	a := New(inner)
	const n = 50
	out := runConcurrent(t, a, inner, n, webhookCall())
	if got := inner.calls.Load(); got != 1 {
		t.Fatalf("inner calls = %d for %d concurrent identical calls, want 1", got, n)
	}
	for i, r := range out {
		if r.decision != authorizer.DecisionAllow || r.reason != "RBAC: allowed" || r.err != nil {
			t.Errorf("call %d: got (%v, %q, %v), want the shared allow", i, r.decision, r.reason, r.err)
		}
	}
}

func TestErrorIsSharedOnlyWithTheFlight(t *testing.T) {
	boom := errors.New("subjectaccessreview: connection refused")
	inner := &blockingInner{release: make(chan struct{}), answer: func(n int32) (authorizer.Decision, string, error) {
		if n == 1 {
			return authorizer.DecisionNoOpinion, "", boom
		}
		return authorizer.DecisionAllow, "", nil
	}}
	a := New(inner)
	for i, r := range runConcurrent(t, a, inner, 10, webhookCall()) {
		if !errors.Is(r.err, boom) {
			t.Errorf("call %d of the failed flight: err = %v, want %v", i, r.err, boom)
		}
	}
	// The next call asks again: the error was not remembered.
	d, _, err := a.Authorize(context.Background(), webhookCall())
	if err != nil || d != authorizer.DecisionAllow {
		t.Fatalf("call after the failed flight: (%v, %v), want allow", d, err)
	}
	if got := inner.calls.Load(); got != 2 {
		t.Fatalf("inner calls = %d, want 2 (one per flight)", got)
	}
}

func TestCancelledCallerStopsWaitingOthersGetTheDecision(t *testing.T) {
	inner := &blockingInner{release: make(chan struct{}), answer: func(int32) (authorizer.Decision, string, error) {
		return authorizer.DecisionAllow, "", nil
	}}
	a := New(inner)
	started := make(chan struct{})
	a.joined = func() { close(started) }
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() {
		_, _, err := a.Authorize(ctx, webhookCall())
		first <- err
	}()
	<-started
	a.joined = nil
	cancel()
	select {
	case err := <-first:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled caller: err = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancelled caller still waiting for the shared decision")
	}
	// A second caller joins the same flight, which the first caller's cancellation
	// did not end, and gets its decision.
	second := make(chan authorizer.Decision, 1)
	go func() {
		d, _, _ := a.Authorize(context.Background(), webhookCall())
		second <- d
	}()
	close(inner.release)
	select {
	case d := <-second:
		if d != authorizer.DecisionAllow {
			t.Fatalf("second caller: %v, want allow", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("second caller got no decision")
	}
	if got := inner.calls.Load(); got > 2 {
		t.Fatalf("inner calls = %d, want at most 2", got)
	}
}

func fieldReqs(t *testing.T, s string) fields.Requirements {
	t.Helper()
	sel, err := fields.ParseSelector(s)
	if err != nil {
		t.Fatal(err)
	}
	return sel.Requirements()
}

func labelReqs(t *testing.T, key string, op selection.Operator, vals ...string) labels.Requirements {
	t.Helper()
	r, err := labels.NewRequirement(key, op, vals)
	if err != nil {
		t.Fatal(err)
	}
	return labels.Requirements{*r}
}

func TestKey(t *testing.T) {
	base := func() authorizer.AttributesRecord {
		return authorizer.AttributesRecord{
			User: &user.DefaultInfo{Name: "alice", UID: "1", Groups: []string{"dev", "system:authenticated"},
				Extra: map[string][]string{"scopes": {"a"}, "team": {"x"}}},
			Verb: "list", Namespace: "ns", APIGroup: "apps.kruise.io", APIVersion: "v1beta1",
			Resource: "clonesets", Subresource: "", Name: "", ResourceRequest: true,
			Path: "/apis/apps.kruise.io/v1beta1/namespaces/ns/clonesets",
		}
	}
	with := func(f func(*authorizer.AttributesRecord)) authorizer.AttributesRecord {
		a := base()
		f(&a)
		return a
	}
	setUser := func(f func(*user.DefaultInfo)) func(*authorizer.AttributesRecord) {
		return func(a *authorizer.AttributesRecord) {
			u := *a.User.(*user.DefaultInfo)
			f(&u)
			a.User = &u
		}
	}
	cases := []struct {
		name  string
		other authorizer.AttributesRecord
		same  bool
	}{
		{"identical", base(), true},
		{"extra built in another order", with(setUser(func(u *user.DefaultInfo) {
			u.Extra = map[string][]string{"team": {"x"}, "scopes": {"a"}}
		})), true},
		{"user", with(setUser(func(u *user.DefaultInfo) { u.Name = "bob" })), false},
		{"uid", with(setUser(func(u *user.DefaultInfo) { u.UID = "2" })), false},
		{"groups", with(setUser(func(u *user.DefaultInfo) { u.Groups = []string{"system:authenticated"} })), false},
		{"extra", with(setUser(func(u *user.DefaultInfo) { u.Extra = map[string][]string{"scopes": {"b"}, "team": {"x"}} })), false},
		{"verb", with(func(a *authorizer.AttributesRecord) { a.Verb = "watch" }), false},
		{"namespace", with(func(a *authorizer.AttributesRecord) { a.Namespace = "other" }), false},
		{"group", with(func(a *authorizer.AttributesRecord) { a.APIGroup = "apps" }), false},
		{"version", with(func(a *authorizer.AttributesRecord) { a.APIVersion = "v1alpha1" }), false},
		{"resource", with(func(a *authorizer.AttributesRecord) { a.Resource = "sidecarsets" }), false},
		{"subresource", with(func(a *authorizer.AttributesRecord) { a.Subresource = "status" }), false},
		{"name", with(func(a *authorizer.AttributesRecord) { a.Name = "web" }), false},
		{"non-resource request", with(func(a *authorizer.AttributesRecord) { a.ResourceRequest = false }), false},
		{"path", with(func(a *authorizer.AttributesRecord) { a.Path = "/apis/apps.kruise.io/v1beta1/clonesets" }), false},
		{"field selector", with(func(a *authorizer.AttributesRecord) {
			a.FieldSelectorRequirements = fieldReqs(t, "spec.nodeName=n1")
		}), false},
		{"label selector", with(func(a *authorizer.AttributesRecord) {
			a.LabelSelectorRequirements = labelReqs(t, "app", selection.In, "web")
		}), false},
	}
	baseKey, ok := key(base())
	if !ok {
		t.Fatal("base attributes have no key")
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, ok := key(tc.other)
			if !ok {
				t.Fatal("no key")
			}
			if (k == baseKey) != tc.same {
				t.Errorf("same key = %v, want %v\nbase:  %s\nother: %s", k == baseKey, tc.same, baseKey, k)
			}
		})
	}
}

func TestSelectorsDistinguishValues(t *testing.T) {
	a := authorizer.AttributesRecord{User: &user.DefaultInfo{Name: "u"}, Verb: "list", Resource: "pods", ResourceRequest: true,
		LabelSelectorRequirements: labelReqs(t, "app", selection.In, "a", "b")}
	b := a
	b.LabelSelectorRequirements = labelReqs(t, "app", selection.In, "b", "a")
	c := a
	c.LabelSelectorRequirements = labelReqs(t, "app", selection.In, "a", "c")
	ka, _ := key(a)
	kb, _ := key(b)
	kc, _ := key(c)
	if ka != kb {
		t.Errorf("the same set of values in another order: different keys %s %s", ka, kb)
	}
	if ka == kc {
		t.Errorf("different values: same key %s", ka)
	}
}

func TestNoUserIsNotCoalesced(t *testing.T) {
	inner := &blockingInner{release: make(chan struct{}), answer: func(int32) (authorizer.Decision, string, error) {
		return authorizer.DecisionNoOpinion, "", nil
	}}
	close(inner.release)
	a := New(inner)
	for range 3 {
		if _, _, err := a.Authorize(context.Background(), authorizer.AttributesRecord{Verb: "get", Path: "/healthz"}); err != nil {
			t.Fatal(err)
		}
	}
	if got := inner.calls.Load(); got != 3 {
		t.Fatalf("inner calls = %d, want 3 (no user: every call its own)", got)
	}
}
