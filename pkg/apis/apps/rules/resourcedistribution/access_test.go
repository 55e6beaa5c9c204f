package resourcedistribution

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// fakeAccess allows the checks in allowed ("verb resource namespace name") and
// records every question.
type fakeAccess struct {
	allowed map[string]bool
	fail    string // a namespace whose question errors
	mu      sync.Mutex
	asked   []Check
}

func (f *fakeAccess) Allowed(_ context.Context, c Check) (bool, string, error) {
	f.mu.Lock()
	f.asked = append(f.asked, c)
	f.mu.Unlock()
	if c.Namespace != "" && c.Namespace == f.fail {
		return false, "", errors.New("kube-apiserver unreachable")
	}
	return f.allowed[c.Verb+" "+c.Resource+" "+c.Namespace+" "+c.Name], "no RBAC rule", nil
}

func TestForbidden(t *testing.T) {
	secret, errs := Decode([]byte(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"pull"}}`), field.NewPath("spec", "resource"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tests := []struct {
		name    string
		verbs   []string
		allowed []string
		fail    string
		denied  []string
		asked   int
		wantErr bool
	}{
		{name: "allowed in every namespace: one question", verbs: VerbsOnCreate,
			allowed: []string{"create secrets  "}, asked: 1},
		{name: "allowed namespace by namespace", verbs: VerbsOnCreate,
			allowed: []string{"create secrets a ", "create secrets b "}, asked: 3},
		{name: "denied in one namespace", verbs: VerbsOnCreate,
			allowed: []string{"create secrets a "}, denied: []string{"b"}, asked: 3},
		{name: "update is asked with the copies' name; create without", verbs: VerbsOnUpdate,
			allowed: []string{"create secrets  ", "update secrets a pull"}, denied: []string{"b"}, asked: 4},
		{name: "a namespace denied create is not asked update", verbs: VerbsOnUpdate,
			allowed: []string{"create secrets a ", "update secrets a pull"}, denied: []string{"b"}, asked: 5},
		{name: "an unanswered question is an error, not an answer", verbs: VerbsOnCreate,
			allowed: []string{"create secrets a "}, fail: "b", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &fakeAccess{allowed: map[string]bool{}, fail: tt.fail}
			for _, k := range tt.allowed {
				a.allowed[k] = true
			}
			denied, err := Forbidden(context.Background(), a, secret, tt.verbs, []string{"a", "b"})
			if tt.wantErr {
				if err == nil || !strings.Contains(err.Error(), "namespace b") {
					t.Fatalf("error %v, want one naming namespace b", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for ns, why := range denied {
				got = append(got, ns)
				if !strings.Contains(why, "may not") || !strings.Contains(why, "secrets") {
					t.Errorf("reason for %s: %q", ns, why)
				}
			}
			if !reflect.DeepEqual(got, tt.denied) {
				t.Errorf("denied %v, want %v", got, tt.denied)
			}
			if len(a.asked) != tt.asked {
				t.Errorf("asked %d questions %v, want %d", len(a.asked), a.asked, tt.asked)
			}
			for _, c := range a.asked {
				if (c.Verb == "create") != (c.Name == "") {
					t.Errorf("question %+v: create carries no name, other verbs the copies' name", c)
				}
			}
		})
	}
	if got := DescribeForbidden(map[string]string{"b": "may not create secrets", "a": "may not create secrets"}); got !=
		"namespace(s) a, b (a: may not create secrets)" {
		t.Errorf("DescribeForbidden = %q", got)
	}
}
