package podwebhook

import (
	"context"
	"errors"
	"fmt"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/deletionprotection"
)

// deletionProtectionHandler applies policy.kruise.io/delete-protection to deletions
// of the built-in kinds it covers (Kruise's own kinds have the in-process plugin
// pkg/admission/deletionprotection; both apply pkg/deletionprotection's rule). Its
// webhook's objectSelector sends only labelled objects, so an ordinary delete costs
// nothing; kube-apiserver calls it for each item of a deletecollection too (how the
// namespace controller empties a namespace).
func deletionProtectionHandler(children func(ctx context.Context, gr schema.GroupResource, obj *unstructured.Unstructured) deletionprotection.ChildrenFunc) Handler {
	if children == nil {
		// A chain built without lookups (the configuration generator's) cannot
		// count; it answers an error rather than a guess.
		children = func(context.Context, schema.GroupResource, *unstructured.Unstructured) deletionprotection.ChildrenFunc {
			return func() (deletionprotection.Children, error) {
				return deletionprotection.Children{}, errors.New("no lookup of children configured")
			}
		}
	}
	deletes := []admissionregistrationv1.OperationType{admissionregistrationv1.Delete}
	var rules []Rule
	for _, r := range []Resource{Namespaces, CRDs, Deployments, ReplicaSets, StatefulSets, Services, Ingresses} {
		rules = append(rules, Rule{Operations: deletes, Resource: r})
	}
	return Handler{
		Name:    "deletion-protection",
		Webhook: DeletionWebhook,
		Rules:   rules,
		Validate: func(ctx context.Context, req *admissionv1.AdmissionRequest) error {
			if len(req.OldObject.Raw) == 0 {
				// kube-apiserver always sends the object being deleted; without it
				// there is nothing to decide on.
				return fmt.Errorf("the DELETE of %s carries no oldObject", req.Name)
			}
			obj := &unstructured.Unstructured{}
			if err := utiljson.Unmarshal(req.OldObject.Raw, &obj.Object); err != nil {
				return fmt.Errorf("decoding the object being deleted: %w", err)
			}
			if obj.GetDeletionTimestamp() != nil {
				// Its deletion was allowed (or not guarded) already and is under way;
				// another DELETE (e.g. a second `kubectl delete ns`) changes nothing.
				return nil
			}
			gr := schema.GroupResource{Group: req.Resource.Group, Resource: req.Resource.Resource}
			reason, err := deletionprotection.Refusal(obj.GetLabels(), children(ctx, gr, obj))
			if err != nil || reason == "" {
				return err
			}
			klog.FromContext(ctx).V(2).Info("Deletion refused", "reason", reason)
			// Named from the object: a deletecollection item has no name in the request.
			return Deny(apierrors.NewForbidden(gr, obj.GetName(), errors.New(reason)))
		},
	}
}
