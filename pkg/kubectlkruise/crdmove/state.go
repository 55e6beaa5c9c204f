package crdmove

import (
	"context"
	"fmt"
	"sort"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	crdGVR        = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	apiServiceGVR = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
)

const (
	// automanagedLabel marks the APIServices kube-aggregator's autoregistration owns (the
	// local ones it makes for CRD group/versions); without it, it leaves one alone.
	automanagedLabel = "kube-aggregator.kubernetes.io/automanaged"
	// servedVersionsAnnotation keeps a CRD's served versions from before the unserve
	// step, for the rollback; unservedAtAnnotation when that step ran (RFC 3339), for
	// the drain wait of a run that goes on after an interruption.
	servedVersionsAnnotation = "kruise-native.io/migration-served-versions"
	unservedAtAnnotation     = "kruise-native.io/migration-unserved-at"
	// finalizersAnnotation keeps a CRD copy's finalizers, moved there by the release step.
	finalizersAnnotation = "kruise-native.io/migration-finalizers"
)

// crd is one Kruise CustomResourceDefinition.
type crd struct {
	Name, Group, Plural, Kind string
	Namespaced                bool
	Storage                   string   // the storage version
	Served                    []string // versions served now
	Recorded                  []string // versions served before the unserve step (from its annotation)
	Deleting                  bool
	Obj                       *unstructured.Unstructured
}

func (c crd) gvr(version string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: c.Group, Version: version, Resource: c.Plural}
}

// apiService is the APIService of one group/version kruise-apiserver serves.
type apiService struct {
	Name, Group, Version string
	Obj                  *unstructured.Unstructured // nil when there is none
}

func (a apiService) local() bool {
	if a.Obj == nil {
		return false
	}
	_, found, _ := unstructured.NestedMap(a.Obj.Object, "spec", "service")
	return !found
}

func (a apiService) points(o *Options) bool {
	if a.Obj == nil {
		return false
	}
	ns, _, _ := unstructured.NestedString(a.Obj.Object, "spec", "service", "namespace")
	name, _, _ := unstructured.NestedString(a.Obj.Object, "spec", "service", "name")
	return ns == o.ServiceNamespace && name == o.ServiceName
}

// available returns the APIService's Available condition and its reason ("Local" for a
// group/version the CRDs serve, "Passed" once kruise-apiserver answered the check).
func (a apiService) available() (bool, string) {
	if a.Obj == nil {
		return false, "missing"
	}
	conds, _, _ := unstructured.NestedSlice(a.Obj.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == "Available" {
			reason, _ := m["reason"].(string)
			return m["status"] == "True", reason
		}
	}
	return false, "no condition"
}

// state is what the cluster looks like now, read at the start of each run.
type state struct {
	CRDs        []crd
	APIServices []apiService
	// Kruise holds the resources kruise-apiserver serves, by group/version (with
	// subresources as "clonesets/status").
	Kruise map[schema.GroupVersion]map[string]bool
	Frozen bool
}

func (s *state) switchedAll(o *Options) bool {
	for _, a := range s.APIServices {
		if !a.points(o) {
			return false
		}
	}
	return len(s.APIServices) > 0
}

func (s *state) switchedAny(o *Options) bool {
	for _, a := range s.APIServices {
		if a.points(o) {
			return true
		}
	}
	return false
}

// read discovers the Kruise CRDs, what kruise-apiserver serves and the APIServices.
func read(ctx context.Context, c *Clients, o *Options) (*state, error) {
	s := &state{Kruise: map[schema.GroupVersion]map[string]bool{}}
	groups := map[string]bool{}
	for _, g := range o.Groups {
		groups[g] = true
	}
	list, err := c.Kube.Resource(crdGVR).List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing CustomResourceDefinitions: %w", err)
	}
	for i := range list.Items {
		obj := &list.Items[i]
		group, _, _ := unstructured.NestedString(obj.Object, "spec", "group")
		if !groups[group] {
			continue
		}
		c := crd{Name: obj.GetName(), Group: group, Obj: obj, Deleting: obj.GetDeletionTimestamp() != nil}
		c.Plural, _, _ = unstructured.NestedString(obj.Object, "spec", "names", "plural")
		c.Kind, _, _ = unstructured.NestedString(obj.Object, "spec", "names", "kind")
		scope, _, _ := unstructured.NestedString(obj.Object, "spec", "scope")
		c.Namespaced = scope == "Namespaced"
		versions, _, _ := unstructured.NestedSlice(obj.Object, "spec", "versions")
		for _, v := range versions {
			m, _ := v.(map[string]any)
			name, _ := m["name"].(string)
			if served, _ := m["served"].(bool); served {
				c.Served = append(c.Served, name)
			}
			if storage, _ := m["storage"].(bool); storage {
				c.Storage = name
			}
		}
		if rec := obj.GetAnnotations()[servedVersionsAnnotation]; rec != "" {
			c.Recorded = strings.Split(rec, ",")
		}
		s.CRDs = append(s.CRDs, c)
	}
	sort.Slice(s.CRDs, func(i, j int) bool { return s.CRDs[i].Name < s.CRDs[j].Name })

	_, resources, err := c.KruiseDiscovery.ServerGroupsAndResources()
	if err != nil {
		return nil, fmt.Errorf("kruise-apiserver at %s: discovery: %w", o.KruiseAPIServer, err)
	}
	for _, rl := range resources {
		gv, err := schema.ParseGroupVersion(rl.GroupVersion)
		if err != nil || !groups[gv.Group] {
			continue
		}
		m := map[string]bool{}
		for _, r := range rl.APIResources {
			m[r.Name] = true
		}
		s.Kruise[gv] = m
	}
	var gvs []schema.GroupVersion
	for gv := range s.Kruise {
		gvs = append(gvs, gv)
	}
	sort.Slice(gvs, func(i, j int) bool { return gvs[i].String() < gvs[j].String() })
	for _, gv := range gvs {
		a := apiService{Name: gv.Version + "." + gv.Group, Group: gv.Group, Version: gv.Version}
		obj, err := c.Kube.Resource(apiServiceGVR).Get(ctx, a.Name, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			return nil, fmt.Errorf("reading APIService %s: %w", a.Name, err)
		default:
			a.Obj = obj
		}
		s.APIServices = append(s.APIServices, a)
	}
	if _, err := c.KubeTyped.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Get(ctx, freezeName, metav1.GetOptions{}); err == nil {
		s.Frozen = true
	} else if !apierrors.IsNotFound(err) {
		return nil, fmt.Errorf("reading ValidatingAdmissionPolicyBinding %s: %w", freezeName, err)
	}
	return s, nil
}
