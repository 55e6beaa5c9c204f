package resourcedistribution

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	rdcontract "github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
)

// ownerIndex indexes cached copies by the UID of their controller.
const ownerIndex = "controllerUID"

func indexByController(obj interface{}) ([]string, error) {
	m, ok := obj.(metav1.Object)
	if !ok {
		return nil, nil
	}
	if ref := metav1.GetControllerOfNoCopy(m); ref != nil {
		return []string{string(ref.UID)}, nil
	}
	return nil, nil
}

// store reads and writes the copies of one kind: cached reads of our copies (the
// label-scoped informer), a live read for a name the cache does not hold (it holds
// only labelled objects, and a conflicting object is one we did not label), and writes.
type store struct {
	kind     string
	informer cache.SharedIndexInformer
	get      func(ctx context.Context, ns, name string) (Object, error)
	create   func(ctx context.Context, obj Object) error
	update   func(ctx context.Context, obj Object) error
	delete   func(ctx context.Context, ns, name string, opts metav1.DeleteOptions) error
}

// owned are the cached copies controlled by uid.
func (s *store) owned(uid string) ([]Object, error) {
	items, err := s.informer.GetIndexer().ByIndex(ownerIndex, uid)
	if err != nil {
		return nil, err
	}
	out := make([]Object, 0, len(items))
	for _, it := range items {
		if o, ok := it.(Object); ok {
			out = append(out, o)
		}
	}
	return out, nil
}

func newStores(client kubernetes.Interface, configMaps, secrets cache.SharedIndexInformer) map[string]*store {
	opts := metav1.CreateOptions{FieldManager: ControllerName}
	uopts := metav1.UpdateOptions{FieldManager: ControllerName}
	return map[string]*store{
		rdcontract.KindConfigMap: {
			kind:     rdcontract.KindConfigMap,
			informer: configMaps,
			get: func(ctx context.Context, ns, name string) (Object, error) {
				return client.CoreV1().ConfigMaps(ns).Get(ctx, name, metav1.GetOptions{})
			},
			create: func(ctx context.Context, obj Object) error {
				_, err := client.CoreV1().ConfigMaps(obj.GetNamespace()).Create(ctx, obj.(*corev1.ConfigMap), opts)
				return err
			},
			update: func(ctx context.Context, obj Object) error {
				_, err := client.CoreV1().ConfigMaps(obj.GetNamespace()).Update(ctx, obj.(*corev1.ConfigMap), uopts)
				return err
			},
			delete: func(ctx context.Context, ns, name string, o metav1.DeleteOptions) error {
				return client.CoreV1().ConfigMaps(ns).Delete(ctx, name, o)
			},
		},
		rdcontract.KindSecret: {
			kind:     rdcontract.KindSecret,
			informer: secrets,
			get: func(ctx context.Context, ns, name string) (Object, error) {
				return client.CoreV1().Secrets(ns).Get(ctx, name, metav1.GetOptions{})
			},
			create: func(ctx context.Context, obj Object) error {
				_, err := client.CoreV1().Secrets(obj.GetNamespace()).Create(ctx, obj.(*corev1.Secret), opts)
				return err
			},
			update: func(ctx context.Context, obj Object) error {
				_, err := client.CoreV1().Secrets(obj.GetNamespace()).Update(ctx, obj.(*corev1.Secret), uopts)
				return err
			},
			delete: func(ctx context.Context, ns, name string, o metav1.DeleteOptions) error {
				return client.CoreV1().Secrets(ns).Delete(ctx, name, o)
			},
		},
	}
}
