// Package importmeta is kruise-apiserver's import path: a create that keeps the object's
// identity from another server. `kubectl kruise migrate-from-crds` moves OpenKruise's
// objects out of CRD storage with it, and pods stay owned: their ownerReferences name
// their owner by UID, and the garbage collector deletes a pod whose owner's UID changed.
//
// A create carrying the Annotation (value: the JSON of Preserved) is stored with that
// UID, creationTimestamp and generation instead of the ones the registry sets. The
// annotation itself is not stored. Only a caller allowed the verb Verb ("import") on
// the resource may do it: the server asks its authorizer (kube-apiserver, through a
// delegated SubjectAccessReview) with the same attributes as the create, verb "import".
// No default role but cluster-admin grants that verb ("*"); the migration runs as
// cluster-admin.
//
// Status is not carried here: the registry clears it on create, and the importer writes
// it afterwards through the status subresource, which stores it as sent.
//
// The work happens in a storage.Interface wrapper, the last step before etcd, because
// the generic registry sets the UID and creationTimestamp (and strategies the
// generation) just before it calls the storage. A dry-run create never reaches the
// storage: it is checked like any create and stored nowhere.
package importmeta

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apiserver/storagewrap"
)

const (
	// Annotation asks for an import; its value is the JSON of Preserved.
	Annotation = "kruise-native.io/import"
	// Verb is what the caller must be allowed on the resource to import.
	Verb = "import"
)

// Preserved is what an import keeps from the source object.
type Preserved struct {
	UID               types.UID   `json:"uid"`
	CreationTimestamp metav1.Time `json:"creationTimestamp"`
	Generation        int64       `json:"generation"`
}

// Encode returns the annotation value for p.
func (p Preserved) Encode() (string, error) {
	b, err := json.Marshal(p)
	return string(b), err
}

// OptionsGetter gives every resource the storage of g, honouring import creates that
// authz allows.
func OptionsGetter(g generic.RESTOptionsGetter, authz authorizer.Authorizer) generic.RESTOptionsGetter {
	return storagewrap.OptionsGetter{RESTOptionsGetter: g, Wrap: func(s storage.Interface) storage.Interface {
		return Storage{Interface: s, Authorizer: authz}
	}}
}

// Storage is a storage.Interface whose Create honours the Annotation.
type Storage struct {
	storage.Interface
	Authorizer authorizer.Authorizer
}

// Create stores obj with the preserved identity when it carries the Annotation and the
// caller may import; it refuses the create when the caller may not.
func (s Storage) Create(ctx context.Context, key string, obj, out runtime.Object, ttl uint64) error {
	accessor, err := meta.Accessor(obj)
	if err != nil {
		return s.Interface.Create(ctx, key, obj, out, ttl)
	}
	value, ok := accessor.GetAnnotations()[Annotation]
	if !ok {
		return s.Interface.Create(ctx, key, obj, out, ttl)
	}
	gr, err := s.authorize(ctx, accessor)
	if err != nil {
		return err
	}
	var p Preserved
	if err := json.Unmarshal([]byte(value), &p); err != nil || p.UID == "" || p.CreationTimestamp.IsZero() || p.Generation < 1 {
		return apierrors.NewBadRequest(fmt.Sprintf("annotation %s: want {\"uid\":..., \"creationTimestamp\":..., \"generation\":>=1}, got %q", Annotation, value))
	}
	annotations := accessor.GetAnnotations()
	delete(annotations, Annotation)
	accessor.SetAnnotations(annotations)
	accessor.SetUID(p.UID)
	accessor.SetCreationTimestamp(p.CreationTimestamp)
	accessor.SetGeneration(p.Generation)
	klog.FromContext(ctx).V(2).Info("Importing with preserved identity", "resource", gr, "object", klog.KObj(accessor), "uid", p.UID)
	return s.Interface.Create(ctx, key, obj, out, ttl)
}

// authorize asks whether the caller may Verb the resource the request creates.
func (s Storage) authorize(ctx context.Context, obj metav1.Object) (schema.GroupResource, error) {
	info, ok := request.RequestInfoFrom(ctx)
	user, userOK := request.UserFrom(ctx)
	if !ok || !userOK || !info.IsResourceRequest || s.Authorizer == nil {
		return schema.GroupResource{}, apierrors.NewForbidden(schema.GroupResource{}, obj.GetName(), fmt.Errorf("annotation %s is honoured only on an authenticated create request", Annotation))
	}
	gr := schema.GroupResource{Group: info.APIGroup, Resource: info.Resource}
	attrs := authorizer.AttributesRecord{
		User:            user,
		Verb:            Verb,
		Namespace:       obj.GetNamespace(),
		APIGroup:        info.APIGroup,
		APIVersion:      info.APIVersion,
		Resource:        info.Resource,
		Name:            obj.GetName(),
		ResourceRequest: true,
	}
	decision, reason, err := s.Authorizer.Authorize(ctx, attrs)
	if decision != authorizer.DecisionAllow {
		msg := fmt.Sprintf("annotation %s needs the verb %q on %s", Annotation, Verb, gr)
		if reason != "" {
			msg += ": " + reason
		}
		if err != nil {
			msg += fmt.Sprintf(" (%v)", err)
		}
		return gr, apierrors.NewForbidden(gr, obj.GetName(), fmt.Errorf("%s", msg))
	}
	return gr, nil
}
