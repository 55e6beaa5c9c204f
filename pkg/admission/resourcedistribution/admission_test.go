package resourcedistribution

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// rbac allows "verb resource namespace" for user alice, "" meaning every namespace;
// it records every question and errors for the namespace "broken".
type rbac struct {
	allow map[string]bool
	mu    sync.Mutex
	asked []authorizer.Attributes
}

func (r *rbac) Authorize(_ context.Context, a authorizer.Attributes) (authorizer.Decision, string, error) {
	r.mu.Lock()
	r.asked = append(r.asked, a)
	r.mu.Unlock()
	if a.GetNamespace() == "broken" {
		return authorizer.DecisionNoOpinion, "", errors.New("webhook unreachable")
	}
	if a.GetUser().GetName() == "alice" && a.GetAPIGroup() == "" && a.IsResourceRequest() &&
		r.allow[a.GetVerb()+" "+a.GetResource()+" "+a.GetNamespace()] {
		return authorizer.DecisionAllow, "", nil
	}
	return authorizer.DecisionNoOpinion, "", nil
}

func newPlugin(t *testing.T, allow []string, namespaces ...string) (*Plugin, *rbac) {
	t.Helper()
	r := &rbac{allow: map[string]bool{}}
	for _, a := range allow {
		r.allow[a] = true
	}
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, spec := range namespaces {
		name, lbl, _ := strings.Cut(spec, ":")
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
		if lbl != "" {
			k, v, _ := strings.Cut(lbl, "=")
			ns.Labels = map[string]string{k: v}
		}
		if err := idx.Add(ns); err != nil {
			t.Fatal(err)
		}
	}
	p := New()
	p.SetAuthorizer(r)
	p.namespaces = corelisters.NewNamespaceLister(idx)
	p.SetReadyFunc(func() bool { return true })
	if err := p.ValidateInitialization(); err != nil {
		t.Fatal(err)
	}
	return p, r
}

func distribution(kind, data string, targets apps.ResourceDistributionTargets) *apps.ResourceDistribution {
	field := "data"
	if kind == "Secret" {
		field = "stringData"
	}
	return &apps.ResourceDistribution{
		ObjectMeta: metav1.ObjectMeta{Name: "sample"},
		Spec: apps.ResourceDistributionSpec{
			Resource: runtime.RawExtension{Raw: []byte(`{"apiVersion":"v1","kind":"` + kind + `","metadata":{"name":"copy"},"` + field + `":{"a":"` + data + `"}}`)},
			Targets:  targets,
		},
	}
}

func included(names ...string) apps.ResourceDistributionTargets {
	var t apps.ResourceDistributionTargets
	for _, n := range names {
		t.IncludedNamespaces.List = append(t.IncludedNamespaces.List, apps.ResourceDistributionNamespace{Name: n})
	}
	return t
}

func attrs(rd, old *apps.ResourceDistribution, who string) admission.Attributes {
	op := admission.Create
	var oldObj runtime.Object
	if old != nil {
		op, oldObj = admission.Update, old
	}
	return admission.NewAttributesRecord(rd, oldObj, apps.Kind("ResourceDistribution").WithVersion("v1alpha1"), "", rd.Name,
		apps.Resource("resourcedistributions").WithVersion("v1alpha1"), "", op, nil, false,
		&user.DefaultInfo{Name: who, Groups: []string{"system:authenticated"}})
}

func TestValidate(t *testing.T) {
	cluster := []string{"team-a:group=test", "team-b:group=test", "other", "kruise-system:group=test", "kube-system"}
	all := apps.ResourceDistributionTargets{AllNamespaces: true}
	selector := apps.ResourceDistributionTargets{NamespaceLabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"group": "test"}}}
	tests := []struct {
		name    string
		allow   []string
		rd, old *apps.ResourceDistribution
		who     string
		// forbidden are the namespaces the 403 must name; none: admitted.
		forbidden []string
		internal  bool
		asked     int
	}{
		{name: "allowed in every namespace: one question", allow: []string{"create secrets "},
			rd: distribution("Secret", "1", all), asked: 1},
		{name: "allowed in both selected namespaces (kruise-system is never a target)",
			allow: []string{"create secrets team-a", "create secrets team-b"}, rd: distribution("Secret", "1", selector), asked: 3},
		{name: "no right to create Secrets in a selected namespace", allow: []string{"create secrets team-a"},
			rd: distribution("Secret", "1", selector), forbidden: []string{"team-b"}},
		{name: "allNamespaces: every namespace without the right is named", allow: []string{"create secrets team-a"},
			rd: distribution("Secret", "1", all), forbidden: []string{"other", "team-b"}},
		{name: "a right on ConfigMaps is no right on Secrets", allow: []string{"create configmaps "},
			rd: distribution("Secret", "1", included("team-a")), forbidden: []string{"team-a"}},
		{name: "another user's rights do not count", allow: []string{"create secrets "}, who: "mallory",
			rd: distribution("Secret", "1", included("team-a")), forbidden: []string{"team-a"}},
		{name: "a named namespace that does not exist yet is left to the controller",
			rd: distribution("ConfigMap", "1", included("later")), asked: 1},
		{name: "a spec change needs update too", allow: []string{"create secrets ", "update secrets team-a"},
			rd: distribution("Secret", "2", included("team-a", "team-b")), old: distribution("Secret", "1", included("team-a")),
			forbidden: []string{"team-b"}},
		{name: "a spec change with both rights", allow: []string{"create secrets ", "update secrets "},
			rd: distribution("Secret", "2", included("team-a")), old: distribution("Secret", "1", included("team-a")), asked: 2},
		{name: "an update that leaves the spec alone asks nothing",
			rd: distribution("Secret", "1", all), old: distribution("Secret", "1", all), asked: 0},
		{name: "an unanswerable question refuses the write", allow: []string{"create secrets team-a"},
			rd: distribution("Secret", "1", included("team-a", "broken")), internal: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cl := cluster
			if tt.internal {
				cl = append(cl, "broken")
			}
			p, r := newPlugin(t, tt.allow, cl...)
			who := tt.who
			if who == "" {
				who = "alice"
			}
			err := p.Validate(context.Background(), attrs(tt.rd, tt.old, who), nil)
			switch {
			case tt.internal:
				if !apierrors.IsInternalError(err) {
					t.Fatalf("error %v, want an internal error", err)
				}
			case len(tt.forbidden) > 0:
				if !apierrors.IsForbidden(err) {
					t.Fatalf("error %v, want 403", err)
				}
				want := "namespace(s) " + strings.Join(tt.forbidden, ", ") + " ("
				if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), who) {
					t.Errorf("error %q does not name the user and exactly %v", err, tt.forbidden)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if len(r.asked) != tt.asked {
					t.Errorf("asked %d questions, want %d", len(r.asked), tt.asked)
				}
			}
			for _, a := range r.asked {
				if a.GetNamespace() == "kruise-system" || a.GetNamespace() == "kube-system" {
					t.Errorf("asked about %s, which is never a target", a.GetNamespace())
				}
			}
		})
	}
}

func TestIgnoresOtherResources(t *testing.T) {
	p, r := newPlugin(t, nil)
	a := admission.NewAttributesRecord(&apps.SidecarSet{}, nil, apps.Kind("SidecarSet").WithVersion("v1beta1"), "", "s",
		apps.Resource("sidecarsets").WithVersion("v1beta1"), "", admission.Create, nil, false, &user.DefaultInfo{Name: "x"})
	if err := p.Validate(context.Background(), a, nil); err != nil || len(r.asked) != 0 {
		t.Errorf("a SidecarSet: %v, %d questions", err, len(r.asked))
	}
	rd := distribution("Secret", "1", apps.ResourceDistributionTargets{AllNamespaces: true})
	status := admission.NewAttributesRecord(rd, rd, apps.Kind("ResourceDistribution").WithVersion("v1alpha1"), "", rd.Name,
		apps.Resource("resourcedistributions").WithVersion("v1alpha1"), "status", admission.Update, nil, false, &user.DefaultInfo{Name: "x"})
	if err := p.Validate(context.Background(), status, nil); err != nil || len(r.asked) != 0 {
		t.Errorf("a status write: %v, %d questions", err, len(r.asked))
	}
}
