package resource_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/generic"

	"github.com/kruise-native/kruise-native/pkg/registry/registrytest"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
	"github.com/kruise-native/kruise-native/pkg/registry/table"
)

// A throwaway kind in a second API group, policy.kruise.io, written as a new kind
// would be: its types, its validation and one resource.Kind. Nothing else.
var policyV1alpha1 = schema.GroupVersion{Group: "policy.kruise.io", Version: "v1alpha1"}

type BudgetSpec struct{ MaxUnavailable int32 }
type BudgetStatus struct{ UnavailableAllowed int32 }

type Budget struct {
	metav1.TypeMeta
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              BudgetSpec   `json:"spec"`
	Status            BudgetStatus `json:"status"`
}

type BudgetList struct {
	metav1.TypeMeta
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Budget `json:"items"`
}

func (b *Budget) DeepCopyObject() runtime.Object {
	out := *b
	b.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return &out
}

func (l *BudgetList) DeepCopyObject() runtime.Object {
	out := *l
	out.Items = make([]Budget, len(l.Items))
	for i := range l.Items {
		out.Items[i] = *l.Items[i].DeepCopyObject().(*Budget)
	}
	return &out
}

var budgetKind = resource.Kind[*Budget, BudgetSpec, BudgetStatus]{
	Group:      policyV1alpha1.Group,
	Versions:   []string{policyV1alpha1.Version},
	Plural:     "budgets",
	Singular:   "budget",
	ShortNames: []string{"bdg"},
	Categories: []string{"kruise"},
	New:        func() *Budget { return &Budget{} },
	NewList:    func() runtime.Object { return &BudgetList{} },
	Spec:       func(b *Budget) *BudgetSpec { return &b.Spec },
	Status:     func(b *Budget) *BudgetStatus { return &b.Status },
	Validate: func(b *Budget) field.ErrorList {
		return validateBudget(b)
	},
	ValidateUpdate:       func(b, _ *Budget) field.ErrorList { return validateBudget(b) },
	ValidateStatusUpdate: func(*Budget, *Budget) field.ErrorList { return nil },
	Table:                table.Convertor{Columns: []table.Column{table.Name, table.Age}},
}

func validateBudget(b *Budget) field.ErrorList {
	var errs field.ErrorList
	if b.Name == "" && b.GenerateName == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "name"), ""))
	}
	if b.Spec.MaxUnavailable < 0 {
		errs = append(errs, field.Invalid(field.NewPath("spec", "maxUnavailable"), b.Spec.MaxUnavailable, "must be >= 0"))
	}
	return errs
}

// policyScheme serves the budget type as the hub and as v1alpha1 (one Go type for
// both, so no conversions are needed).
func policyScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	s.AddKnownTypes(schema.GroupVersion{Group: policyV1alpha1.Group, Version: runtime.APIVersionInternal}, &Budget{}, &BudgetList{})
	s.AddKnownTypes(policyV1alpha1, &Budget{}, &BudgetList{})
	metav1.AddToGroupVersion(s, policyV1alpha1)
	if err := s.SetVersionPriority(policyV1alpha1); err != nil {
		panic(err)
	}
	return s
}

func policyDeps(t *testing.T, s *runtime.Scheme) resource.Deps {
	codec := serializer.NewCodecFactory(s).LegacyCodec(policyV1alpha1)
	opts := registrytest.NewRESTOptionsWithCodec(t, budgetKind.GroupResource(), codec, policyV1alpha1)
	return resource.Deps{Scheme: s, RESTOptions: registrytest.OptionsGetter(opts)}
}

// A kind of a second group gets storage next to apps.kruise.io's: its version's main
// and status endpoints.
func TestStorageServesASecondGroup(t *testing.T) {
	s := policyScheme()
	storage, err := resource.Storage(policyDeps(t, s), budgetKind)
	if err != nil {
		t.Fatal(err)
	}
	if len(storage) != 1 {
		t.Fatalf("%d group versions, want 1", len(storage))
	}
	paths := storage[policyV1alpha1]
	for _, p := range []string{"budgets", "budgets/status"} {
		if paths[p] == nil {
			t.Errorf("%s not served", p)
		}
	}
	if len(paths) != 2 {
		t.Errorf("served %d paths, want budgets and budgets/status only", len(paths))
	}
	for _, storage := range paths {
		if d, ok := storage.(interface{ Destroy() }); ok {
			defer d.Destroy()
		}
	}
	if _, err := resource.Storage(policyDeps(t, s), budgetKind, budgetKind); err == nil {
		t.Error("a kind described twice was accepted")
	}
}

// The same kind passes the registry conformance suite every served kind passes.
func TestSecondGroupConformance(t *testing.T) {
	s := policyScheme()
	deps := resource.Deps{Scheme: s}
	registrytest.RunConformance(t, budgetKind, registrytest.Fixture[*Budget]{
		Name: "budget",
		Valid: func() *Budget {
			return &Budget{ObjectMeta: metav1.ObjectMeta{Name: "budget", Namespace: metav1.NamespaceDefault}, Spec: BudgetSpec{MaxUnavailable: 1}}
		},
		BreakCreate:  func(b *Budget) { b.Spec.MaxUnavailable = -1 },
		BreakUpdate:  func(b *Budget) { b.Spec.MaxUnavailable = -1 },
		ChangeSpec:   func(b *Budget) { b.Spec.MaxUnavailable++ },
		ChangeStatus: func(b *Budget) { b.Status.UnavailableAllowed++ },
	}, withStorage(t, deps))
}

// withStorage fills deps with storage options that open a private etcd per call:
// conformance builds fresh endpoints for each subtest.
func withStorage(t *testing.T, deps resource.Deps) resource.Deps {
	codec := serializer.NewCodecFactory(deps.Scheme).LegacyCodec(policyV1alpha1)
	deps.RESTOptions = perResource{t: t, codec: codec}
	return deps
}

type perResource struct {
	t     *testing.T
	codec runtime.Codec
}

func (p perResource) GetRESTOptions(gr schema.GroupResource, _ runtime.Object) (generic.RESTOptions, error) {
	return registrytest.NewRESTOptionsWithCodec(p.t, gr, p.codec, policyV1alpha1), nil
}
