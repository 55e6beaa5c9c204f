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
	mwc := &admissionregistrationv1.MutatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: ConfigurationName},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{Name: "other.example.com"}, {Name: webhookName(PodWebhook, Mutating),
			MatchConditions: []admissionregistrationv1.MatchCondition{{Name: "admins", Expression: "true"}}}}}
	i := mutatingPodHook(mwc)
	if i != 1 {
		t.Fatalf("mutatingPodHook = %d", i)
	}
	for _, s := range []callScope{
		{Narrowed: true, Clauses: CallClauses{"a": "A", "b": "B"}, WidenedAt: at},
		{Narrowed: true, Clauses: CallClauses{"a": "A"}},
		{WidenedAt: at},
		{},
	} {
		if err := writeCallScope(mwc, i, s); err != nil {
			t.Fatal(err)
		}
		if got := readCallScope(mwc, i); !got.equal(s) {
			t.Errorf("wrote %+v, read %+v", s, got)
		}
		if conds := mwc.Webhooks[i].MatchConditions; conds[0].Name != "admins" || len(conds) != map[bool]int{true: 2, false: 1}[s.Narrowed] {
			t.Errorf("conditions after writing %+v: %+v", s, conds)
		}
	}
	if err := writeCallScope(mwc, i, callScope{Narrowed: true, Clauses: CallClauses{"a": "A"}}); err != nil {
		t.Fatal(err)
	}
	mwc.Webhooks[i].MatchConditions[1].Expression = "true"
	if got := readCallScope(mwc, i); !got.Narrowed || got.Clauses != nil {
		t.Errorf("edited condition read as %+v; want narrowed, clauses unknown", got)
	}
}

// The patch sets the scope as writeCallScope would, and keeps what it does not touch,
// fields this client does not know included.
func TestCallScopePatch(t *testing.T) {
	stored := []byte(`{"apiVersion":"admissionregistration.k8s.io/v1","kind":"MutatingWebhookConfiguration",
		"metadata":{"name":"kruise-pod-webhook","resourceVersion":"42","labels":{"app":"kruise"}},
		"webhooks":[{"name":"other.example.com","futureField":1},
			{"name":"pods.mutate.kruise-native.io","futureField":2,"matchConditions":[{"name":"admins","expression":"true"}]}]}`)
	var c admissionregistrationv1.MutatingWebhookConfiguration
	if err := json.Unmarshal(stored, &c); err != nil {
		t.Fatal(err)
	}
	for _, s := range []callScope{
		{Narrowed: true, Clauses: CallClauses{"a": "A"}, WidenedAt: time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)},
		{},
	} {
		patch, err := callScopePatch(&c, 1, s)
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
		var got admissionregistrationv1.MutatingWebhookConfiguration
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if r := readCallScope(&got, 1); !r.equal(s) {
			t.Errorf("patched to %+v, want %+v", r, s)
		}
		if !bytes.Contains(raw, []byte(`"futureField":2`)) || got.Labels["app"] != "kruise" || got.ResourceVersion != "42" ||
			got.Webhooks[1].MatchConditions[0].Name != "admins" {
			t.Errorf("the patch changed what it does not own: %s", raw)
		}
	}
	// Another webhook at that index: the patch does not apply.
	patch, _ := callScopePatch(&c, 1, callScope{})
	moved := bytes.Replace(stored, []byte(`"other.example.com"`), []byte(`"x"`), 1)
	moved = bytes.Replace(moved, []byte(`"pods.mutate.kruise-native.io"`), []byte(`"other.example.com"`), 1)
	p, _ := jsonpatch.DecodePatch(patch)
	if _, err := p.Apply(moved); err == nil {
		t.Error("the patch applied to a configuration whose webhooks moved")
	}
}
