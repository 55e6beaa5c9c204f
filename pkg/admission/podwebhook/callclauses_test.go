package podwebhook

import (
	"context"
	"fmt"
	"maps"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/apis/policy"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// kubeMatches evaluates expr as kube-apiserver evaluates a webhook's match condition
// for the create of pod in namespace ns: the same compiler, environment and matcher.
// failurePolicy Fail, so an evaluation error fails the test instead of reading as
// "skip" (which Ignore would make of it).
func kubeMatches(t *testing.T, expr, ns string, pod runtime.Object) bool {
	t.Helper()
	gvk := corev1.SchemeGroupVersion.WithKind("Pod")
	attrs := admission.NewAttributesRecord(pod, nil, gvk, ns, "p", corev1.SchemeGroupVersion.WithResource("pods"), "",
		admission.Create, &metav1.CreateOptions{}, false, nil)
	return kubeMatchesRequest(t, expr, &admission.VersionedAttributes{Attributes: attrs, VersionedKind: gvk, VersionedObject: pod})
}

// kubeMatchesRequest is kubeMatches for any request.
func kubeMatchesRequest(t *testing.T, expr string, attrs *admission.VersionedAttributes) bool {
	t.Helper()
	compiler := plugincel.NewConditionCompiler(environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion()))
	filter := compiler.CompileCondition([]plugincel.ExpressionAccessor{&matchconditions.MatchCondition{Name: CallConditionName, Expression: expr}},
		plugincel.OptionalVariableDeclarations{HasAuthorizer: true}, environment.NewExpressions)
	m := matchconditions.NewMatcher(filter, ptr.To(admissionregistrationv1.Fail), "webhook", "admit", "test")
	r := m.Match(context.Background(), attrs, nil, nil)
	if r.Error != nil {
		t.Fatalf("evaluating %s: %v", expr, r.Error)
	}
	return r.Matches
}

func labelled(l map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Labels: l},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "app"}}}}
}

// The clause of a SidecarSet is true exactly for the pods sidecarset.Matches picks
// (namespace selectors aside, which the clause leaves to the handler).
func TestSidecarSetCallClause(t *testing.T) {
	sel := func(ml map[string]string, exprs ...metav1.LabelSelectorRequirement) *metav1.LabelSelector {
		return &metav1.LabelSelector{MatchLabels: ml, MatchExpressions: exprs}
	}
	req := func(key string, op metav1.LabelSelectorOperator, values ...string) metav1.LabelSelectorRequirement {
		return metav1.LabelSelectorRequirement{Key: key, Operator: op, Values: values}
	}
	selectors := map[string]*metav1.LabelSelector{
		"matchLabels":        sel(map[string]string{"app": "nginx", "tier": "web"}),
		"in":                 sel(nil, req("app", metav1.LabelSelectorOpIn, "nginx", "redis")),
		"notIn":              sel(nil, req("app", metav1.LabelSelectorOpNotIn, "nginx")),
		"exists":             sel(nil, req("team", metav1.LabelSelectorOpExists)),
		"doesNotExist":       sel(nil, req("team", metav1.LabelSelectorOpDoesNotExist)),
		"mixed":              sel(map[string]string{"app": "nginx"}, req("team", metav1.LabelSelectorOpDoesNotExist), req("env", metav1.LabelSelectorOpIn, "prod")),
		"qualified key":      sel(map[string]string{"example.com/app": "a.b-c_d"}),
		"empty":              sel(nil),
		"nil":                nil,
		"empty value":        sel(map[string]string{"app": ""}),
		"notIn of two":       sel(nil, req("app", metav1.LabelSelectorOpNotIn, "nginx", "redis")),
		"exists and notIn":   sel(nil, req("app", metav1.LabelSelectorOpExists), req("app", metav1.LabelSelectorOpNotIn, "redis")),
		"in with one choice": sel(nil, req("tier", metav1.LabelSelectorOpIn, "web")),
	}
	pods := map[string]map[string]string{
		"no labels":        nil,
		"empty labels":     {},
		"nginx":            {"app": "nginx"},
		"nginx web":        {"app": "nginx", "tier": "web"},
		"redis":            {"app": "redis"},
		"nginx team":       {"app": "nginx", "team": "a"},
		"nginx prod":       {"app": "nginx", "env": "prod"},
		"qualified":        {"example.com/app": "a.b-c_d"},
		"app empty":        {"app": ""},
		"other label only": {"other": "x"},
	}
	for selName, s := range selectors {
		for namespace, ssNamespace := range map[string]string{"any namespace": "", "own namespace": "ns", "other namespace": "other"} {
			ss := &apps.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "ss"}, Spec: apps.SidecarSetSpec{Selector: s, Namespace: ssNamespace}}
			key, expr, ok := SidecarSetCallClause(ss)
			if !ok || key != "sidecarset/ss" {
				t.Fatalf("%s: clause %q %v", selName, key, ok)
			}
			for podName, l := range pods {
				t.Run(fmt.Sprintf("%s/%s/%s", selName, namespace, podName), func(t *testing.T) {
					pod := labelled(l)
					pod.Namespace = "ns"
					want, err := sidecarset.Matches(ss, pod, func(string) (labels.Set, error) { return nil, nil })
					if err != nil {
						t.Fatal(err)
					}
					if got := kubeMatches(t, expr, "ns", pod); got != want {
						t.Errorf("clause %s = %t, sidecarset.Matches = %t", expr, got, want)
					}
				})
			}
		}
	}
}

// A paused or deleted SidecarSet injects nothing: no clause.
func TestSidecarSetCallClauseNone(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}
	paused := &apps.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: apps.SidecarSetSpec{Selector: sel,
		InjectionStrategy: apps.SidecarSetInjectionStrategy{Paused: true}}}
	deleted := &apps.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "d", DeletionTimestamp: &metav1.Time{}}, Spec: apps.SidecarSetSpec{Selector: sel}}
	for _, ss := range []*apps.SidecarSet{paused, deleted} {
		if _, _, ok := SidecarSetCallClause(ss); ok {
			t.Errorf("SidecarSet %s: want no clause", ss.Name)
		}
	}
}

// The launch-priority clause is true for every pod injectLaunchPriority changes or
// refuses, and false for a plain pod.
func TestLaunchPriorityCallClause(t *testing.T) {
	withEnv := func(c corev1.Container, env ...corev1.EnvVar) corev1.Container { c.Env = env; return c }
	app, side := corev1.Container{Name: "app", Image: "app"}, corev1.Container{Name: "side", Image: "side"}
	prio := func(v string) corev1.EnvVar { return corev1.EnvVar{Name: pub.ContainerPriorityEnv, Value: v} }
	cases := map[string]struct {
		annotations map[string]string
		containers  []corev1.Container
		want        bool
	}{
		"plain":                {containers: []corev1.Container{app, side}},
		"other env":            {containers: []corev1.Container{withEnv(app, corev1.EnvVar{Name: "X", Value: "1"}), side}},
		"other annotation":     {annotations: map[string]string{"a": "b"}, containers: []corev1.Container{app, side}},
		"ordered":              {annotations: map[string]string{pub.ContainerLaunchPriorityKey: pub.ContainerLaunchOrdered}, containers: []corev1.Container{app, side}, want: true},
		"priority env":         {containers: []corev1.Container{withEnv(app, prio("10")), side}, want: true},
		"priority env, second": {containers: []corev1.Container{app, withEnv(side, corev1.EnvVar{Name: "X"}, prio("-5"))}, want: true},
		"invalid priority":     {containers: []corev1.Container{withEnv(app, prio("high")), side}, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Annotations: tc.annotations}, Spec: corev1.PodSpec{Containers: tc.containers}}
			changes, errs := injectLaunchPriority(pod.DeepCopy())
			if (changes || len(errs) > 0) && !tc.want {
				t.Fatalf("case says the handler leaves it alone, but it changes or refuses it")
			}
			if got := kubeMatches(t, launchPriorityClause, "ns", pod); got != tc.want {
				t.Errorf("clause = %t, want %t", got, tc.want)
			}
		})
	}
	// A create without containers (refused by validation later) must not fail the condition.
	if kubeMatches(t, launchPriorityClause, "ns", &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "empty"}}) {
		t.Error("a pod without containers: want false")
	}
}

// The readiness-gate clause is true for pods a Kruise workload controls.
func TestReadinessGateCallClause(t *testing.T) {
	owner := func(apiVersion, kind string, controller *bool) []metav1.OwnerReference {
		return []metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: "w", UID: "u", Controller: controller}}
	}
	cases := map[string]struct {
		owners []metav1.OwnerReference
		want   bool
	}{
		"no owner":          {},
		"ReplicaSet":        {owners: owner("apps/v1", "ReplicaSet", ptr.To(true))},
		"CloneSet":          {owners: owner("apps.kruise.io/v1alpha1", "CloneSet", ptr.To(true)), want: true},
		"StatefulSet":       {owners: owner("apps.kruise.io/v1beta1", "StatefulSet", ptr.To(true)), want: true},
		"not controller":    {owners: owner("apps.kruise.io/v1alpha1", "CloneSet", nil)},
		"controller false":  {owners: owner("apps.kruise.io/v1alpha1", "CloneSet", ptr.To(false))},
		"lookalike group":   {owners: owner("apps.kruise.io.example.com/v1", "CloneSet", ptr.To(true))},
		"BroadcastJob (on)": {owners: owner("apps.kruise.io/v1alpha1", "BroadcastJob", ptr.To(true)), want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			pod := labelled(nil)
			pod.OwnerReferences = tc.owners
			if injectReadinessGate(pod.DeepCopy()) && !tc.want {
				t.Fatalf("case says the handler leaves it alone, but it adds the gate")
			}
			if got := kubeMatches(t, readinessGateClause, "ns", pod); got != tc.want {
				t.Errorf("clause = %t, want %t", got, tc.want)
			}
		})
	}
}

// A spread's clause picks every create in its namespace.
func TestWorkloadSpreadCallClause(t *testing.T) {
	_, expr, ok := WorkloadSpreadCallClause(&apps.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Name: "ws", Namespace: "ns"}})
	if !ok {
		t.Fatal("want a clause")
	}
	if !kubeMatches(t, expr, "ns", labelled(nil)) || kubeMatches(t, expr, "other", labelled(nil)) {
		t.Errorf("clause %s: want true in ns only", expr)
	}
}

// The handlers' union: the chain with every handler on has a clause per SidecarSet
// and per namespace with spreads, and the expression kube-apiserver gets picks their
// pods and no other. A chain with a mutating handler that cannot say is called for
// everything.
func TestMutatingCallClauses(t *testing.T) {
	sets := []*v1beta1.SidecarSet{
		{ObjectMeta: metav1.ObjectMeta{Name: "logs"}, Spec: v1beta1.SidecarSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "paused"}, Spec: v1beta1.SidecarSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}},
			InjectionStrategy: v1beta1.SidecarSetInjectionStrategy{Paused: true}}},
	}
	spreads := &fakeSpreads{cached: &v1beta1.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Name: "ws", Namespace: "spread-ns"}}}
	handlers := Handlers(Config{SidecarSets: func() ([]*v1beta1.SidecarSet, error) { return sets, nil }, ReadinessGate: true,
		Spreads: spreads, Budgets: noBudgets{}})
	clauses, ok, err := phaseCallClauses(handlers, Mutating)
	if err != nil || !ok {
		t.Fatalf("clauses: ok %v, %v", ok, err)
	}
	for _, key := range []string{"sidecarset/logs", "workloadspread/spread-ns", "launch-priority", "kruise-pod-ready-gate"} {
		if _, found := clauses[key]; !found {
			t.Errorf("no clause %s in %v", key, clauses)
		}
	}
	if _, found := clauses["sidecarset/paused"]; found {
		t.Error("a paused SidecarSet has a clause")
	}
	expr := clauses.Expression()
	for _, tc := range []struct {
		ns   string
		pod  *corev1.Pod
		want bool
	}{
		{"ns", labelled(map[string]string{"app": "web"}), true},
		{"ns", labelled(map[string]string{"app": "db"}), false},
		{"ns", labelled(nil), false},
		{"spread-ns", labelled(nil), true},
	} {
		if got := kubeMatches(t, expr, tc.ns, tc.pod); got != tc.want {
			t.Errorf("%s/%v: %t, want %t", tc.ns, tc.pod.Labels, got, tc.want)
		}
	}

	handlers = append(handlers, Handler{Name: "unscoped", Rules: podCreates, Mutate: func(context.Context, *admissionv1.AdmissionRequest, *corev1.Pod) error { return nil }})
	if _, ok, err := phaseCallClauses(handlers, Mutating); ok || err != nil {
		t.Errorf("with a handler without CallClauses: ok %v, %v; want every create sent", ok, err)
	}
}

// The validating handlers' union: a clause per namespace with budgets and per
// namespace with spreads, true for the updates, deletes (no object) and evictions (an
// Eviction, not a pod) there and for nothing elsewhere.
func TestValidatingCallClauses(t *testing.T) {
	budgets := oneSlot() // in namespace "ns"
	spreads := &fakeSpreads{cached: &v1beta1.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Name: "ws", Namespace: "spread-ns"}}}
	handlers := Handlers(Config{SidecarSets: func() ([]*v1beta1.SidecarSet, error) { return nil, nil }, Spreads: spreads, Budgets: budgets})
	clauses, ok, err := phaseCallClauses(handlers, Validating)
	if err != nil || !ok {
		t.Fatalf("clauses: ok %v, %v", ok, err)
	}
	_, budgetClause, _ := BudgetCallClause(&metav1.ObjectMeta{Namespace: "ns"})
	if want := (CallClauses{"podunavailablebudget/ns": budgetClause, "workloadspread/spread-ns": namespaceClause("spread-ns")}); !maps.Equal(clauses, want) {
		t.Errorf("clauses %v, want %v", clauses, want)
	}
	expr := clauses.Expression()
	pod := labelled(map[string]string{"app": "web"})
	podGVK, podsGVR := corev1.SchemeGroupVersion.WithKind("Pod"), corev1.SchemeGroupVersion.WithResource("pods")
	request := func(ns string, op admission.Operation, username string) *admission.VersionedAttributes {
		var info user.Info
		if username != "" {
			info = &user.DefaultInfo{Name: username}
		}
		switch op {
		case admission.Delete:
			a := admission.NewAttributesRecord(nil, pod, podGVK, ns, "p", podsGVR, "", op, &metav1.DeleteOptions{}, false, info)
			return &admission.VersionedAttributes{Attributes: a, VersionedKind: podGVK, VersionedOldObject: pod}
		case admission.Update:
			a := admission.NewAttributesRecord(pod, pod, podGVK, ns, "p", podsGVR, "", op, &metav1.UpdateOptions{}, false, info)
			return &admission.VersionedAttributes{Attributes: a, VersionedKind: podGVK, VersionedObject: pod, VersionedOldObject: pod}
		default: // an eviction
			ev := &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: ns}}
			gvk := policyv1.SchemeGroupVersion.WithKind("Eviction")
			a := admission.NewAttributesRecord(ev, nil, gvk, ns, "p", podsGVR, "eviction", admission.Create, &metav1.CreateOptions{}, false, info)
			return &admission.VersionedAttributes{Attributes: a, VersionedKind: gvk, VersionedObject: ev}
		}
	}
	for _, ns := range []string{"ns", "spread-ns", "other"} {
		for _, op := range []admission.Operation{admission.Update, admission.Delete, admission.Create} {
			for _, u := range []string{"", "alice", "system:kube-controller-manager", GarbageCollectorUser} {
				// The garbage collector's deletes pass the guard unread: kube-apiserver
				// skips them where only budgets would be called (the spread's
				// release still needs them).
				want := ns != "other" && !(ns == "ns" && op == admission.Delete && u == GarbageCollectorUser)
				if got := kubeMatchesRequest(t, expr, request(ns, op, u)); got != want {
					t.Errorf("%s by %q in %s: called %t, want %t", op, u, ns, got, want)
				}
			}
		}
	}
}

// Which clauses an object being admitted adds, to which phase's registration.
func TestObjectCallClauses(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	ss := &apps.SidecarSet{ObjectMeta: metav1.ObjectMeta{Name: "logs"}, Spec: apps.SidecarSetSpec{Selector: sel}}
	paused := ss.DeepCopy()
	paused.Spec.InjectionStrategy.Paused = true
	ws := &apps.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Name: "ws", Namespace: "ns"}}
	budget := &policy.PodUnavailableBudget{ObjectMeta: metav1.ObjectMeta{Name: "pub", Namespace: "ns"}}
	deleted := budget.DeepCopy()
	deleted.DeletionTimestamp = &metav1.Time{}
	ssKey, ssExpr, _ := SidecarSetCallClause(ss)
	cases := map[string]struct {
		obj  runtime.Object
		want map[Phase]CallClauses
	}{
		"SidecarSet": {obj: ss, want: map[Phase]CallClauses{Mutating: {ssKey: ssExpr}}},
		"WorkloadSpread": {obj: ws, want: map[Phase]CallClauses{Mutating: {"workloadspread/ns": namespaceClause("ns")},
			Validating: {"workloadspread/ns": namespaceClause("ns")}}},
		"PodUnavailableBudget": {obj: budget, want: map[Phase]CallClauses{Validating: {"podunavailablebudget/ns": namespaceClause("ns") +
			` && !(request.operation == "DELETE" && has(request.userInfo.username) && ` +
			`request.userInfo.username == "system:serviceaccount:kube-system:generic-garbage-collector")`}}},
		"paused SidecarSet": {obj: paused},
		"deleted budget":    {obj: deleted},
		"other kind":        {obj: &apps.CloneSet{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := ObjectCallClauses(tc.obj)
			if !maps.EqualFunc(got, tc.want, func(a, b CallClauses) bool { return maps.Equal(a, b) }) {
				t.Errorf("ObjectCallClauses = %v, want %v", got, tc.want)
			}
		})
	}
}

// Expression compiles and evaluates with as many clauses as Fits allows.
func TestCallClausesAtTheBound(t *testing.T) {
	c := CallClauses{}
	for i := 0; len(c) < maxCallClauses; i++ {
		key, expr, _ := sidecarSetClause(&metav1.ObjectMeta{Name: fmt.Sprintf("ss-%03d", i)}, "", &metav1.LabelSelector{MatchLabels: map[string]string{"app": fmt.Sprintf("a%d", i)}}, false)
		c[key] = expr
	}
	if !c.Fits() {
		t.Fatalf("%d clauses do not fit", len(c))
	}
	if !kubeMatches(t, c.Expression(), "ns", labelled(map[string]string{"app": "a200"})) || kubeMatches(t, c.Expression(), "ns", labelled(nil)) {
		t.Error("want only the selected pod")
	}
	key, expr, _ := sidecarSetClause(&metav1.ObjectMeta{Name: "one-too-many"}, "", &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, false)
	c[key] = expr
	if c.Fits() {
		t.Error("past maxCallClauses, want Fits false")
	}
}

// A client may send any field as null; no clause may fail on it (with failurePolicy
// Ignore a failed condition skips the webhook).
func TestCallClausesOnNulls(t *testing.T) {
	pod := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "p", "labels": nil, "annotations": nil, "ownerReferences": nil},
		"spec":     map[string]any{"containers": []any{map[string]any{"name": "app", "env": nil}, map[string]any{"name": nil, "env": []any{map[string]any{"name": nil}}}}},
	}}
	nullSpec := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": "p", "ownerReferences": []any{map[string]any{"apiVersion": nil, "controller": nil}}}, "spec": nil}}
	_, ssExpr, _ := sidecarSetClause(&metav1.ObjectMeta{Name: "ss"}, "ns", &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"},
		MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "team", Operator: metav1.LabelSelectorOpDoesNotExist}}}, false)
	for _, obj := range []*unstructured.Unstructured{pod, nullSpec} {
		for name, expr := range map[string]string{"sidecarset": ssExpr, "launch priority": launchPriorityClause, "readiness gate": readinessGateClause} {
			if kubeMatches(t, expr, "ns", obj) {
				t.Errorf("%s: true for a pod of nulls", name)
			}
		}
	}
}
