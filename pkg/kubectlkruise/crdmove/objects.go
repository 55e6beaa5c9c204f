package crdmove

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kruise-native/kruise-native/pkg/apiserver/importmeta"
)

// kindPlan is what moves for one CRD: its objects, read in version Version, which both
// the CRD and kruise-apiserver serve.
type kindPlan struct {
	CRD     crd
	Version string
	Objects []unstructured.Unstructured
	// HasStatus: kruise-apiserver serves the status subresource (status is written there).
	HasStatus bool
}

func (k kindPlan) gvr() schema.GroupVersionResource { return k.CRD.gvr(k.Version) }

// export lists every object of every Kruise CRD and checks that kruise-apiserver can
// take it: it serves the kind, and nothing is being deleted.
func export(ctx context.Context, c *Clients, s *state) ([]kindPlan, error) {
	var plans []kindPlan
	for _, cr := range s.CRDs {
		if len(cr.Served) == 0 {
			return nil, fmt.Errorf("CRD %s serves no version: a run after the switch? (run again to finish, or --rollback)", cr.Name)
		}
		version := ""
		for _, v := range append([]string{cr.Storage}, cr.Served...) {
			if s.Kruise[schema.GroupVersion{Group: cr.Group, Version: v}][cr.Plural] && slices.Contains(cr.Served, v) {
				version = v
				break
			}
		}
		if version == "" {
			version = cr.Served[0]
		}
		list, err := c.Kube.Resource(cr.gvr(version)).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", cr.gvr(version), err)
		}
		p := kindPlan{CRD: cr, Version: version, Objects: list.Items}
		served := s.Kruise[schema.GroupVersion{Group: cr.Group, Version: version}]
		p.HasStatus = served[cr.Plural+"/status"]
		if !served[cr.Plural] && len(list.Items) > 0 {
			return nil, fmt.Errorf("kruise-apiserver does not serve %s, and the CRD %s holds %d of them: they would be lost", cr.gvr(version).GroupResource(), cr.Name, len(list.Items))
		}
		for _, v := range cr.Served {
			if !s.Kruise[schema.GroupVersion{Group: cr.Group, Version: v}][cr.Plural] && len(list.Items) > 0 {
				return nil, fmt.Errorf("kruise-apiserver does not serve %s in %s, which CRD %s serves: clients of that version would lose it", cr.Plural, v, cr.Name)
			}
		}
		for _, obj := range list.Items {
			if obj.GetDeletionTimestamp() != nil {
				return nil, fmt.Errorf("%s %s is being deleted (finalizers %v): wait until it is gone, then run again", cr.Kind, key(&obj), obj.GetFinalizers())
			}
		}
		plans = append(plans, p)
	}
	return plans, nil
}

// importResult counts what import did.
type importResult struct{ Created, Updated, Unchanged int }

// importAll puts every exported object into kruise-apiserver with its identity, or with
// dryRun asks kruise-apiserver to validate each create without storing it.
func importAll(ctx context.Context, c *Clients, o *Options, plans []kindPlan, dryRun bool) (importResult, error) {
	var res importResult
	n := 0
	for _, p := range plans {
		for i := range p.Objects {
			r, err := importOne(ctx, c, p, &p.Objects[i], dryRun)
			if err != nil {
				return res, fmt.Errorf("%s %s: %w", p.CRD.Kind, key(&p.Objects[i]), err)
			}
			switch r {
			case "created":
				res.Created++
			case "updated":
				res.Updated++
			default:
				res.Unchanged++
			}
			n++
			if !dryRun && o.interrupted("import", n) {
				return res, ErrInterrupted
			}
		}
	}
	return res, nil
}

// withMovedFinalizers returns src with the finalizers the release step moved to an
// annotation put back: the copy in kruise-apiserver keeps them.
func withMovedFinalizers(src *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	moved, ok := src.GetAnnotations()[finalizersAnnotation]
	if !ok {
		return src, nil
	}
	out := src.DeepCopy()
	var fin []string
	if err := json.Unmarshal([]byte(moved), &fin); err != nil {
		return nil, fmt.Errorf("annotation %s: %w", finalizersAnnotation, err)
	}
	out.SetFinalizers(append(out.GetFinalizers(), fin...))
	a := out.GetAnnotations()
	delete(a, finalizersAnnotation)
	out.SetAnnotations(a)
	return out, nil
}

func importOne(ctx context.Context, c *Clients, p kindPlan, source *unstructured.Unstructured, dryRun bool) (string, error) {
	src, err := withMovedFinalizers(source)
	if err != nil {
		return "", err
	}
	client := c.Kruise.Resource(p.gvr()).Namespace(src.GetNamespace())
	obj := src.DeepCopy()
	preserved, err := importmeta.Preserved{UID: src.GetUID(), CreationTimestamp: src.GetCreationTimestamp(), Generation: max(src.GetGeneration(), 1)}.Encode()
	if err != nil {
		return "", err
	}
	for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "generation", "managedFields", "selfLink"} {
		unstructured.RemoveNestedField(obj.Object, "metadata", f)
	}
	delete(obj.Object, "status")
	a := obj.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[importmeta.Annotation] = preserved
	obj.SetAnnotations(a)
	opts := metav1.CreateOptions{FieldManager: "kubectl-kruise-migrate"}
	if dryRun {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	result := "created"
	got, err := client.Create(ctx, obj, opts)
	if apierrors.IsAlreadyExists(err) {
		if got, err = client.Get(ctx, src.GetName(), metav1.GetOptions{}); err != nil {
			return "", err
		}
		if got.GetUID() != src.GetUID() {
			return "", fmt.Errorf("kruise-apiserver already holds it with UID %s, not %s: delete that copy from kruise-apiserver first", got.GetUID(), src.GetUID())
		}
		if dryRun {
			return "present", nil
		}
		if result, got, err = bringUpToDate(ctx, c, p, src, got); err != nil {
			return "", err
		}
	} else if err != nil {
		return "", err
	}
	if dryRun || !p.HasStatus {
		return result, nil
	}
	status, ok := src.Object["status"]
	if !ok || apiequality.Semantic.DeepEqual(status, got.Object["status"]) {
		return result, nil
	}
	got.Object["status"] = status
	if _, err := client.UpdateStatus(ctx, got, metav1.UpdateOptions{FieldManager: "kubectl-kruise-migrate"}); err != nil {
		return "", fmt.Errorf("writing status: %w", err)
	}
	if result == "unchanged" {
		result = "updated"
	}
	return result, nil
}

// bringUpToDate makes an earlier run's copy match the source again (labels,
// annotations, finalizers, ownerReferences, spec): the CRD copy may have changed
// between an interrupted run and this one.
func bringUpToDate(ctx context.Context, c *Clients, p kindPlan, src, got *unstructured.Unstructured) (string, *unstructured.Unstructured, error) {
	want := got.DeepCopy()
	want.SetLabels(src.GetLabels())
	want.SetAnnotations(src.GetAnnotations())
	want.SetFinalizers(src.GetFinalizers())
	want.SetOwnerReferences(src.GetOwnerReferences())
	for k, v := range src.Object {
		if k != "metadata" && k != "status" && k != "apiVersion" && k != "kind" {
			want.Object[k] = v
		}
	}
	if apiequality.Semantic.DeepEqual(want.Object, got.Object) {
		return "unchanged", got, nil
	}
	updated, err := c.Kruise.Resource(p.gvr()).Namespace(src.GetNamespace()).Update(ctx, want, metav1.UpdateOptions{FieldManager: "kubectl-kruise-migrate"})
	if err != nil {
		return "", nil, fmt.Errorf("updating the earlier copy: %w", err)
	}
	return "updated", updated, nil
}

// verify checks that kruise-apiserver holds every exported object with its UID.
func verify(ctx context.Context, c *Clients, plans []kindPlan) error {
	for _, p := range plans {
		if len(p.Objects) == 0 {
			continue
		}
		list, err := c.Kruise.Resource(p.gvr()).List(ctx, metav1.ListOptions{})
		if err != nil {
			return fmt.Errorf("listing %s in kruise-apiserver: %w", p.gvr().GroupResource(), err)
		}
		have := map[string]string{}
		for _, obj := range list.Items {
			have[key(&obj)] = string(obj.GetUID())
		}
		for _, obj := range p.Objects {
			if have[key(&obj)] != string(obj.GetUID()) {
				return fmt.Errorf("%s %s: kruise-apiserver holds UID %q, want %s", p.CRD.Kind, key(&obj), have[key(&obj)], obj.GetUID())
			}
		}
	}
	return nil
}

// moveFinalizers moves the CRD copies' finalizers into an annotation (release), or with
// restore puts them back (undo, rollback). Deleting a CRD deletes its objects, and one
// with a finalizer would hold the CRD Terminating for good once nothing serves it.
func moveFinalizers(ctx context.Context, c *Clients, plans []kindPlan, restore bool) (int, error) {
	n := 0
	for _, p := range plans {
		list, err := c.Kube.Resource(p.gvr()).List(ctx, metav1.ListOptions{})
		if err != nil {
			return n, fmt.Errorf("listing %s: %w", p.gvr(), err)
		}
		for i := range list.Items {
			obj := &list.Items[i]
			var want *unstructured.Unstructured
			switch {
			case restore:
				if _, ok := obj.GetAnnotations()[finalizersAnnotation]; !ok {
					continue
				}
				if want, err = withMovedFinalizers(obj); err != nil {
					return n, fmt.Errorf("%s %s: %w", p.CRD.Kind, key(obj), err)
				}
			case len(obj.GetFinalizers()) > 0:
				want = obj.DeepCopy()
				moved := obj.GetFinalizers()
				if prev, ok := obj.GetAnnotations()[finalizersAnnotation]; ok {
					var before []string
					if err := json.Unmarshal([]byte(prev), &before); err == nil {
						moved = append(before, moved...)
					}
				}
				b, _ := json.Marshal(moved)
				a := want.GetAnnotations()
				if a == nil {
					a = map[string]string{}
				}
				a[finalizersAnnotation] = string(b)
				want.SetAnnotations(a)
				want.SetFinalizers(nil)
			default:
				continue
			}
			if _, err := c.Kube.Resource(p.gvr()).Namespace(obj.GetNamespace()).Update(ctx, want, metav1.UpdateOptions{}); err != nil {
				return n, fmt.Errorf("%s %s: %w", p.CRD.Kind, key(obj), err)
			}
			n++
		}
	}
	return n, nil
}

func key(obj *unstructured.Unstructured) string {
	if obj.GetNamespace() == "" {
		return obj.GetName()
	}
	return obj.GetNamespace() + "/" + obj.GetName()
}
