package podwebhook

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
)

// The registration's annotations that record what its match condition was built from,
// so that any kruise-apiserver replica can widen it by one clause without rebuilding
// the rest from a cache that may lag another replica's.
const (
	// CallClausesAnnotation holds the clauses (JSON, CallClauses) of the condition.
	CallClausesAnnotation = "kruise-native.io/pod-webhook-call-clauses"
	// CallWidenedAtAnnotation is when an admitted SidecarSet, WorkloadSpread or
	// PodUnavailableBudget last widened the condition (RFC 3339).
	CallWidenedAtAnnotation = "kruise-native.io/pod-webhook-widened-at"
)

// callScope is the part of a Pod webhook's registration CallScopeKeeper owns:
// whether kube-apiserver calls it for every request its rules match, or only those its
// clauses pick.
type callScope struct {
	// Narrowed: the registration carries CallConditionName.
	Narrowed bool
	// Clauses the condition was built from; nil when Narrowed and the annotation is
	// missing or unreadable (nobody knows what the condition picks).
	Clauses CallClauses
	// WidenedAt: see CallWidenedAtAnnotation; zero when never, or long enough ago.
	WidenedAt time.Time
}

// widened is cur after an object whose clause is key/expr was admitted: the clause
// OR-ed in, so that its pods are sent from now on, whatever any replica's cache holds.
// A condition nobody can read, or one grown too large, gives way to calling for every
// request. changed is false when cur already sends those pods.
func widened(cur callScope, key, expr string, now time.Time) (next callScope, changed bool) {
	if !cur.Narrowed {
		return cur, false
	}
	if cur.Clauses == nil {
		return callScope{WidenedAt: now}, true
	}
	if cur.Clauses[key] == expr {
		return cur, false
	}
	c := maps.Clone(cur.Clauses)
	c.Add(CallClauses{key: expr})
	if !c.Fits() {
		return callScope{WidenedAt: now}, true
	}
	return callScope{Narrowed: true, Clauses: c, WidenedAt: now}, true
}

// settled is the scope a replica writes from its caches (desired; ok false when the
// handlers cannot say, which sends every request). Within grace of the last widening
// the replica's cache may not yet hold what another replica just admitted: it then
// only adds clauses and removes none, and waits to narrow.
func settled(cur callScope, desired CallClauses, ok bool, now time.Time, grace time.Duration) callScope {
	inGrace := !cur.WidenedAt.IsZero() && now.Before(cur.WidenedAt.Add(grace))
	switch {
	case !ok:
		return callScope{WidenedAt: cur.WidenedAt}
	case !inGrace:
		return callScope{Narrowed: true, Clauses: desired}
	case !cur.Narrowed || cur.Clauses == nil:
		return callScope{WidenedAt: cur.WidenedAt}
	}
	c := maps.Clone(cur.Clauses)
	for k, e := range desired {
		if _, found := c[k]; !found {
			c[k] = e
		}
	}
	if !c.Fits() {
		return callScope{WidenedAt: cur.WidenedAt}
	}
	return callScope{Narrowed: true, Clauses: c, WidenedAt: cur.WidenedAt}
}

// equal compares two scopes as the registration records them (seconds).
func (s callScope) equal(o callScope) bool {
	return s.Narrowed == o.Narrowed && maps.Equal(s.Clauses, o.Clauses) &&
		s.WidenedAt.Truncate(time.Second).Equal(o.WidenedAt.Truncate(time.Second))
}

// registrationView is what the call scope reads and writes of one of the two
// configurations named ConfigurationName (mutating or validating): its version, its
// annotations, and each webhook's name and match conditions.
type registrationView struct {
	ResourceVersion string
	Annotations     map[string]string
	Hooks           []hookView
}

// hookView is one webhook of a registrationView.
type hookView struct {
	Name            string
	MatchConditions []admissionregistrationv1.MatchCondition
}

// podHook is the index of the Pod webhook of phase p in v, or -1.
func podHook(v registrationView, p Phase) int {
	name := webhookName(PodWebhook, p)
	for i := range v.Hooks {
		if v.Hooks[i].Name == name {
			return i
		}
	}
	return -1
}

// readCallScope reads the scope of v's webhook i.
func readCallScope(v registrationView, i int) callScope {
	var s callScope
	if t, err := time.Parse(time.RFC3339, v.Annotations[CallWidenedAtAnnotation]); err == nil {
		s.WidenedAt = t
	}
	for _, mc := range v.Hooks[i].MatchConditions {
		if mc.Name != CallConditionName {
			continue
		}
		s.Narrowed = true
		var clauses CallClauses
		if err := json.Unmarshal([]byte(v.Annotations[CallClausesAnnotation]), &clauses); err == nil &&
			clauses != nil && clauses.Expression() == mc.Expression {
			s.Clauses = clauses
		}
	}
	return s
}

// writeCallScope sets s on v's webhook i, leaving any other match condition alone.
func writeCallScope(v *registrationView, i int, s callScope) error {
	hook := &v.Hooks[i]
	var conds []admissionregistrationv1.MatchCondition
	for _, mc := range hook.MatchConditions {
		if mc.Name != CallConditionName {
			conds = append(conds, mc)
		}
	}
	v.Annotations = maps.Clone(v.Annotations)
	if v.Annotations == nil {
		v.Annotations = map[string]string{}
	}
	delete(v.Annotations, CallClausesAnnotation)
	delete(v.Annotations, CallWidenedAtAnnotation)
	if s.Narrowed {
		raw, err := json.Marshal(s.Clauses)
		if err != nil {
			return err
		}
		v.Annotations[CallClausesAnnotation] = string(raw)
		conds = append(conds, admissionregistrationv1.MatchCondition{Name: CallConditionName, Expression: s.Clauses.Expression()})
	}
	if !s.WidenedAt.IsZero() {
		v.Annotations[CallWidenedAtAnnotation] = s.WidenedAt.UTC().Format(time.RFC3339)
	}
	hook.MatchConditions = conds
	return nil
}

// callScopePatch is the JSON patch that sets s on webhook i of v, as read: only the
// annotations and that webhook's match conditions, so fields this client does not know
// (a newer kube-apiserver's) are kept, and only if v is still the stored version
// (resourceVersion; a conflict otherwise) and i still the Pod webhook.
func callScopePatch(v registrationView, i int, s callScope) ([]byte, error) {
	out := v
	out.Hooks = slices.Clone(v.Hooks)
	if err := writeCallScope(&out, i, s); err != nil {
		return nil, err
	}
	conds := out.Hooks[i].MatchConditions
	if conds == nil {
		conds = []admissionregistrationv1.MatchCondition{}
	}
	type op struct {
		Op    string `json:"op"`
		Path  string `json:"path"`
		Value any    `json:"value"`
	}
	return json.Marshal([]op{
		{Op: "test", Path: fmt.Sprintf("/webhooks/%d/name", i), Value: v.Hooks[i].Name},
		{Op: "replace", Path: "/metadata/resourceVersion", Value: v.ResourceVersion},
		{Op: "add", Path: "/metadata/annotations", Value: out.Annotations},
		{Op: "add", Path: fmt.Sprintf("/webhooks/%d/matchConditions", i), Value: conds},
	})
}
