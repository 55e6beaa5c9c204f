package podwebhook

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/apis/policy"
)

// CallClauses say which requests the handlers of one phase may act on (the creates
// the mutating handlers may change, the updates, deletes and evictions the validating
// ones may refuse or record), as CEL expressions over kube-apiserver's admission
// variables (object, request), keyed by what each stands for ("sidecarset/<name>",
// "launch-priority"). kube-apiserver calls that phase's Pod webhook only for a request
// for which one of them is true: it evaluates them as the registration's match
// condition (CallScopeKeeper), so the requests no handler would act on never leave
// kube-apiserver.
//
// Every clause must be true for every request its handler might act on (it may be
// true for more), and must never fail to evaluate: with failurePolicy Ignore an
// evaluation error skips the webhook. Fields are therefore read only behind has(), and
// a validating clause reads nothing of object (null on a delete).
type CallClauses map[string]string

// CallConditionName is the match condition CallScopeKeeper keeps on each Pod webhook;
// other conditions an administrator adds are left alone.
const CallConditionName = "kruise-handlers-may-mutate"

// Bounds past which the webhook is called for every request instead: each clause
// costs kube-apiserver a little on every request, and past this many the call costs
// less.
const (
	maxCallClauses         = 256
	maxCallExpressionBytes = 64 << 10
)

// Expression is the match condition: the clauses OR-ed in key order, so the same
// clauses always give the same text. No clause at all is "false".
func (c CallClauses) Expression() string {
	if len(c) == 0 {
		return "false"
	}
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(" || ")
		}
		b.WriteString("(" + c[k] + ")")
	}
	return b.String()
}

// Fits reports whether the clauses are few and short enough to be a match condition.
func (c CallClauses) Fits() bool {
	if len(c) > maxCallClauses {
		return false
	}
	n := 0
	for _, e := range c {
		n += len(e) + 6
	}
	return n <= maxCallExpressionBytes
}

// Add puts every clause of o into c; a key both have is called when either is true.
func (c CallClauses) Add(o CallClauses) {
	for k, e := range o {
		c[k] = orClause(c[k], e)
	}
}

// orClause is a clause true when either is; an empty one is absent.
func orClause(a, b string) string {
	switch {
	case a == "" || a == b:
		return b
	case b == "":
		return a
	default:
		return "(" + a + ") || (" + b + ")"
	}
}

// celString is s as a CEL string literal (CEL reads Go's escapes).
func celString(s string) string { return strconv.Quote(s) }

// present is true when the field at path is set and not null: a client may send
// "labels": null, and reading into null is an evaluation error.
func present(path string) string { return "has(" + path + ") && " + path + " != null" }

// podLabels reads the labels of the pod being created.
const podLabels = "object.metadata.labels"

var (
	hasLabels      = present(podLabels)
	hasAnnotations = present("object.metadata.annotations")
)

// hasLabel is true when the pod carries label key.
func hasLabel(key string) string {
	return hasLabels + " && " + celString(key) + " in " + podLabels
}

// selectorClause is true for the pods whose labels sel selects. An empty or nil
// selector selects nothing here, as in sidecarset.Matches.
func selectorClause(sel *metav1.LabelSelector) (string, error) {
	if sel == nil || (len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0) {
		return "false", nil
	}
	var terms []string
	keys := make([]string, 0, len(sel.MatchLabels))
	for k := range sel.MatchLabels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		terms = append(terms, hasLabel(k)+" && "+podLabels+"["+celString(k)+"] == "+celString(sel.MatchLabels[k]))
	}
	for _, r := range sel.MatchExpressions {
		values := make([]string, len(r.Values))
		for i, v := range r.Values {
			values[i] = celString(v)
		}
		in := hasLabel(r.Key) + " && " + podLabels + "[" + celString(r.Key) + "] in [" + strings.Join(values, ", ") + "]"
		switch r.Operator {
		case metav1.LabelSelectorOpIn:
			terms = append(terms, in)
		case metav1.LabelSelectorOpNotIn:
			terms = append(terms, "!("+in+")")
		case metav1.LabelSelectorOpExists:
			terms = append(terms, hasLabel(r.Key))
		case metav1.LabelSelectorOpDoesNotExist:
			terms = append(terms, "!("+hasLabel(r.Key)+")")
		default:
			return "", fmt.Errorf("label selector operator %q", r.Operator)
		}
	}
	for i, t := range terms {
		terms[i] = "(" + t + ")"
	}
	return strings.Join(terms, " && "), nil
}

// namespaceClause is true for requests in namespace ns.
func namespaceClause(ns string) string { return "request.namespace == " + celString(ns) }

// SidecarSetCallClause is the clause of a SidecarSet: true for the pods its namespace
// and selector pick. A namespace selector is not evaluated (kube-apiserver does not
// give match conditions the namespace's labels): such a SidecarSet is called for the
// pods its selector picks in every namespace, and the handler decides.
func SidecarSetCallClause(ss *apps.SidecarSet) (key, expr string, ok bool) {
	return sidecarSetClause(ss, ss.Spec.Namespace, ss.Spec.Selector, ss.Spec.InjectionStrategy.Paused)
}

// sidecarSetClause is SidecarSetCallClause from the fields every version of a
// SidecarSet has (the handler reads v1beta1 from its cache, admission sees the hub). A
// paused or deleted SidecarSet injects nothing and has no clause (ok false); an
// unusable selector is called for every create.
func sidecarSetClause(meta metav1.Object, namespace string, sel *metav1.LabelSelector, paused bool) (key, expr string, ok bool) {
	if paused || meta.GetDeletionTimestamp() != nil {
		return "", "", false
	}
	expr, err := selectorClause(sel)
	if err != nil {
		expr = "true"
	}
	if namespace != "" {
		expr = namespaceClause(namespace) + " && (" + expr + ")"
	}
	return "sidecarset/" + meta.GetName(), expr, true
}

// WorkloadSpreadCallClause is the clause of a WorkloadSpread (any version): every
// pod create and delete in its namespace (the handlers find the pod's workload from its
// owner, which a pod of a Deployment gets from its ReplicaSet). A deleted spread has
// none.
func WorkloadSpreadCallClause(ws metav1.Object) (key, expr string, ok bool) {
	if ws.GetDeletionTimestamp() != nil {
		return "", "", false
	}
	return "workloadspread/" + ws.GetNamespace(), namespaceClause(ws.GetNamespace()), true
}

// launchPriorityClause: the pod carries the launch-priority annotation, or a container
// names the priority env var (injectLaunchPriority reads nothing else).
var launchPriorityClause = "(" + hasAnnotations + " && " + celString(pub.ContainerLaunchPriorityKey) + " in object.metadata.annotations) || " +
	"(" + present("object.spec") + " && " + present("object.spec.containers") + " && object.spec.containers.exists(c, " +
	present("c.env") + " && c.env.exists(e, " + present("e.name") + " && e.name == " + celString(pub.ContainerPriorityEnv) + ")))"

// readinessGateClause: a controller owner reference in the apps.kruise.io group (the
// kinds injectReadinessGate gives the gate to are checked by the handler).
var readinessGateClause = present("object.metadata.ownerReferences") + " && object.metadata.ownerReferences.exists(r, " +
	present("r.controller") + " && r.controller == true && " + present("r.apiVersion") + " && r.apiVersion.startsWith(" +
	celString(apps.GroupName+"/") + "))"

// garbageCollectorDelete is true for the garbage collector's deletes, which the budget
// guard lets through unread (budget_owners.go). request is typed (a string is never
// null), but a request without a user has no username.
var garbageCollectorDelete = `request.operation == "DELETE" && has(request.userInfo.username) && ` +
	"request.userInfo.username == " + celString(GarbageCollectorUser)

// BudgetCallClause is the clause of a PodUnavailableBudget (any version): every pod
// update, delete and eviction in its namespace (the guard finds the budgets covering
// the pod itself) but the garbage collector's deletes. A deleted budget guards nothing
// and has none.
func BudgetCallClause(pub metav1.Object) (key, expr string, ok bool) {
	if pub.GetDeletionTimestamp() != nil {
		return "", "", false
	}
	return "podunavailablebudget/" + pub.GetNamespace(), namespaceClause(pub.GetNamespace()) + " && !(" + garbageCollectorDelete + ")", true
}

// ObjectCallClauses are the clauses obj, an object being admitted, adds to the Pod
// webhook's registrations, by phase: a SidecarSet's pods must be sent to the mutating
// call, a budget's disruptions to the validating one, and a WorkloadSpread's pods to
// both (placement on create, release on delete). Nil for any other object.
func ObjectCallClauses(obj runtime.Object) map[Phase]CallClauses {
	var (
		key, expr string
		ok        bool
		phases    []Phase
	)
	switch o := obj.(type) {
	case *apps.SidecarSet:
		key, expr, ok = SidecarSetCallClause(o)
		phases = []Phase{Mutating}
	case *apps.WorkloadSpread:
		key, expr, ok = WorkloadSpreadCallClause(o)
		phases = []Phase{Mutating, Validating}
	case *policy.PodUnavailableBudget:
		key, expr, ok = BudgetCallClause(o)
		phases = []Phase{Validating}
	case *apps.PersistentPodState:
		key, expr, ok = PersistentPodStateCallClause(o)
		phases = []Phase{Mutating}
	}
	if !ok {
		return nil
	}
	out := map[Phase]CallClauses{}
	for _, p := range phases {
		out[p] = CallClauses{key: expr}
	}
	return out
}

// phaseCallClauses is the union of the clauses of the pod webhook's handlers of phase
// p; ok is false when one of them cannot say (no CallClauses), or the union is too
// large to be a match condition: then every request is sent.
func phaseCallClauses(handlers []Handler, p Phase) (CallClauses, bool, error) {
	out := CallClauses{}
	for i := range handlers {
		h := &handlers[i]
		if h.Phase() != p || h.WebhookName() != PodWebhook {
			continue
		}
		if h.CallClauses == nil {
			return nil, false, nil
		}
		c, err := h.CallClauses()
		if err != nil {
			return nil, false, fmt.Errorf("the requests handler %s may act on: %w", h.Name, err)
		}
		out.Add(c)
	}
	if !out.Fits() {
		return nil, false, nil
	}
	return out, true, nil
}

// cachedCallClauses is a handler's CallClauses from a cache: the clause (by clause) of
// each object list returns for every namespace.
func cachedCallClauses[T metav1.Object](what string, list func(namespace string) ([]T, error),
	clause func(metav1.Object) (key, expr string, ok bool)) func() (CallClauses, error) {
	return func() (CallClauses, error) {
		objs, err := list(metav1.NamespaceAll)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", what, err)
		}
		out := CallClauses{}
		for _, o := range objs {
			if key, expr, ok := clause(o); ok {
				out[key] = expr
			}
		}
		return out, nil
	}
}

// staticCallClause is a handler's CallClauses when they never change.
func staticCallClause(key, expr string) func() (CallClauses, error) {
	return func() (CallClauses, error) { return CallClauses{key: expr}, nil }
}
