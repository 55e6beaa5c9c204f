package podwebhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
)

func TestWidened(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	narrowed := callScope{Narrowed: true, Clauses: CallClauses{"a": "A", "b": "B"}}
	big := CallClauses{}
	for i := 0; i < maxCallClauses; i++ {
		big[fmt.Sprint(i)] = "true"
	}
	cases := map[string]struct {
		cur         callScope
		key, expr   string
		want        callScope
		wantChanged bool
	}{
		"every create sent already": {cur: callScope{}, key: "c", expr: "C", want: callScope{}},
		"clause there already":      {cur: narrowed, key: "a", expr: "A", want: narrowed},
		"new clause": {cur: narrowed, key: "c", expr: "C", wantChanged: true,
			want: callScope{Narrowed: true, Clauses: CallClauses{"a": "A", "b": "B", "c": "C"}, WidenedAt: now}},
		// A changed selector: the old one stays OR-ed in until the caches settle, as a
		// replica with an older cache may still be admitting under it.
		"changed clause": {cur: narrowed, key: "a", expr: "A2", wantChanged: true,
			want: callScope{Narrowed: true, Clauses: CallClauses{"a": "(A) || (A2)", "b": "B"}, WidenedAt: now}},
		"unreadable condition": {cur: callScope{Narrowed: true}, key: "a", expr: "A", wantChanged: true,
			want: callScope{WidenedAt: now}},
		"too large": {cur: callScope{Narrowed: true, Clauses: big}, key: "x", expr: "X", wantChanged: true,
			want: callScope{WidenedAt: now}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, changed := widened(tc.cur, tc.key, tc.expr, now)
			if changed != tc.wantChanged || !got.equal(tc.want) {
				t.Errorf("widened = %+v, %t; want %+v, %t", got, changed, tc.want, tc.wantChanged)
			}
		})
	}
}

func TestSettled(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	grace := 30 * time.Second
	recent, old := now.Add(-10*time.Second), now.Add(-time.Minute)
	desired := CallClauses{"a": "A", "c": "C"}
	cases := map[string]struct {
		cur  callScope
		ok   bool
		want callScope
	}{
		"first narrowing":            {cur: callScope{}, ok: true, want: callScope{Narrowed: true, Clauses: desired}},
		"handlers cannot say":        {cur: callScope{Narrowed: true, Clauses: desired}, want: callScope{}},
		"settled long after a widen": {cur: callScope{Narrowed: true, Clauses: CallClauses{"a": "(A0) || (A)", "b": "B"}, WidenedAt: old}, ok: true, want: callScope{Narrowed: true, Clauses: desired}},
		// Within the grace period, b (admitted elsewhere, or deleted) stays; the
		// cache's c is added; a keeps the widened form.
		"within grace: only adds": {cur: callScope{Narrowed: true, Clauses: CallClauses{"a": "(A0) || (A)", "b": "B"}, WidenedAt: recent}, ok: true,
			want: callScope{Narrowed: true, Clauses: CallClauses{"a": "(A0) || (A)", "b": "B", "c": "C"}, WidenedAt: recent}},
		"within grace, every create sent": {cur: callScope{WidenedAt: recent}, ok: true, want: callScope{WidenedAt: recent}},
		"within grace, unreadable":        {cur: callScope{Narrowed: true, WidenedAt: recent}, ok: true, want: callScope{WidenedAt: recent}},
		"unreadable, no widening":         {cur: callScope{Narrowed: true}, ok: true, want: callScope{Narrowed: true, Clauses: desired}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var d CallClauses
			if tc.ok {
				d = desired
			}
			if got := settled(tc.cur, d, tc.ok, now, grace); !got.equal(tc.want) {
				t.Errorf("settled = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// What writeCallScope records, readCallScope reads back; conditions of others stay;
// an edited condition reads as unknown.
func TestCallScopeRoundTrip(t *testing.T) {
	at := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	v := registrationView{Hooks: []hookView{{Name: "other.example.com"}, {Name: webhookName(PodWebhook, Mutating),
		MatchConditions: []admissionregistrationv1.MatchCondition{{Name: "admins", Expression: "true"}}}}}
	i := podHook(v, Mutating)
	if i != 1 || podHook(v, Validating) != -1 {
		t.Fatalf("podHook = %d, %d", i, podHook(v, Validating))
	}
	for _, s := range []callScope{
		{Narrowed: true, Clauses: CallClauses{"a": "A", "b": "B"}, WidenedAt: at},
		{Narrowed: true, Clauses: CallClauses{"a": "A"}},
		{WidenedAt: at},
		{},
	} {
		if err := writeCallScope(&v, i, s); err != nil {
			t.Fatal(err)
		}
		if got := readCallScope(v, i); !got.equal(s) {
			t.Errorf("wrote %+v, read %+v", s, got)
		}
		if conds := v.Hooks[i].MatchConditions; conds[0].Name != "admins" || len(conds) != map[bool]int{true: 2, false: 1}[s.Narrowed] {
			t.Errorf("conditions after writing %+v: %+v", s, conds)
		}
	}
	if err := writeCallScope(&v, i, callScope{Narrowed: true, Clauses: CallClauses{"a": "A"}}); err != nil {
		t.Fatal(err)
	}
	v.Hooks[i].MatchConditions[1].Expression = "true"
	if got := readCallScope(v, i); !got.Narrowed || got.Clauses != nil {
		t.Errorf("edited condition read as %+v; want narrowed, clauses unknown", got)
	}
}

// The patch sets the scope as writeCallScope would, on either kind of configuration,
// and keeps what it does not touch, fields this client does not know included.
func TestCallScopePatch(t *testing.T) {
	for _, phase := range []Phase{Mutating, Validating} {
		t.Run(string(phase), func(t *testing.T) {
			hook := webhookName(PodWebhook, phase)
			stored := []byte(`{"apiVersion":"admissionregistration.k8s.io/v1",
		"metadata":{"name":"kruise-pod-webhook","resourceVersion":"42","labels":{"app":"kruise"}},
		"webhooks":[{"name":"other.example.com","futureField":1},
			{"name":"` + hook + `","futureField":2,"matchConditions":[{"name":"admins","expression":"true"}]}]}`)
			view := func(raw []byte) registrationView {
				t.Helper()
				var (
					v   registrationView
					err error
				)
				if phase == Mutating {
					var c admissionregistrationv1.MutatingWebhookConfiguration
					err = json.Unmarshal(raw, &c)
					v, _ = viewOf(&c, nil)
				} else {
					var c admissionregistrationv1.ValidatingWebhookConfiguration
					err = json.Unmarshal(raw, &c)
					v, _ = viewOf(&c, nil)
				}
				if err != nil {
					t.Fatal(err)
				}
				return v
			}
			v := view(stored)
			if podHook(v, phase) != 1 {
				t.Fatalf("podHook = %d", podHook(v, phase))
			}
			for _, s := range []callScope{
				{Narrowed: true, Clauses: CallClauses{"a": "A"}, WidenedAt: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)},
				{},
			} {
				patch, err := callScopePatch(v, 1, s)
				if err != nil {
					t.Fatal(err)
				}
				p, err := jsonpatch.DecodePatch(patch)
				if err != nil {
					t.Fatal(err)
				}
				raw, err := p.Apply(stored)
				if err != nil {
					t.Fatalf("applying %s: %v", patch, err)
				}
				got := view(raw)
				if r := readCallScope(got, 1); !r.equal(s) {
					t.Errorf("patched to %+v, want %+v", r, s)
				}
				var meta struct {
					Metadata metav1.ObjectMeta `json:"metadata"`
				}
				if err := json.Unmarshal(raw, &meta); err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(raw, []byte(`"futureField":2`)) || meta.Metadata.Labels["app"] != "kruise" || got.ResourceVersion != "42" ||
					got.Hooks[1].MatchConditions[0].Name != "admins" {
					t.Errorf("the patch changed what it does not own: %s", raw)
				}
			}
			if v.Annotations != nil {
				t.Errorf("building a patch changed the view it was built from: %v", v.Annotations)
			}
			// Another webhook at that index: the patch does not apply.
			patch, _ := callScopePatch(v, 1, callScope{})
			moved := bytes.Replace(stored, []byte(`"other.example.com"`), []byte(`"x"`), 1)
			moved = bytes.Replace(moved, []byte(`"`+hook+`"`), []byte(`"other.example.com"`), 1)
			p, _ := jsonpatch.DecodePatch(patch)
			if _, err := p.Apply(moved); err == nil {
				t.Error("the patch applied to a configuration whose webhooks moved")
			}
		})
	}
}
