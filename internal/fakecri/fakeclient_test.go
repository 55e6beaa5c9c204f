package fakecri

import (
	"encoding/json"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// newVersionedClientset is a fake clientset whose pods get resourceVersions and whose
// updates and merge patches honour them (409 Conflict on a stale version), as the API
// server does; client-go's fake tracker does neither. The simulator relies on both to
// avoid writing from a stale cache.
func newVersionedClientset() *fake.Clientset {
	c := fake.NewClientset()
	var mu sync.Mutex
	last := 0
	next := func() string {
		mu.Lock()
		defer mu.Unlock()
		last++
		return strconv.Itoa(last)
	}
	podsGVR := corev1.SchemeGroupVersion.WithResource("pods")
	current := func(ns, name string) (*corev1.Pod, error) {
		obj, err := c.Tracker().Get(podsGVR, ns, name)
		if err != nil {
			return nil, err
		}
		return obj.(*corev1.Pod), nil
	}

	c.PrependReactor("create", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		// The default reactor stores this same object after us.
		a.(k8stesting.CreateAction).GetObject().(*corev1.Pod).ResourceVersion = next()
		return false, nil, nil
	})
	c.PrependReactor("update", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		pod := a.(k8stesting.UpdateAction).GetObject().(*corev1.Pod)
		cur, err := current(pod.Namespace, pod.Name)
		if err != nil {
			return true, nil, err
		}
		if pod.ResourceVersion != "" && pod.ResourceVersion != cur.ResourceVersion {
			return true, nil, apierrors.NewConflict(podsGVR.GroupResource(), pod.Name, nil)
		}
		pod.ResourceVersion = next()
		return false, nil, nil
	})
	c.PrependReactor("patch", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
		p := a.(k8stesting.PatchAction)
		if p.GetPatchType() != types.MergePatchType || p.GetSubresource() != "status" {
			return true, nil, apierrors.NewBadRequest("test clientset: only merge patches of pods/status")
		}
		// The simulator's status patch: a resourceVersion and the whole containerStatuses.
		var patch struct {
			Metadata metav1.ObjectMeta `json:"metadata"`
			Status   struct {
				ContainerStatuses []corev1.ContainerStatus `json:"containerStatuses"`
			} `json:"status"`
		}
		if err := json.Unmarshal(p.GetPatch(), &patch); err != nil {
			return true, nil, apierrors.NewBadRequest(err.Error())
		}
		cur, err := current(p.GetNamespace(), p.GetName())
		if err != nil {
			return true, nil, err
		}
		if rv := patch.Metadata.ResourceVersion; rv != "" && rv != cur.ResourceVersion {
			return true, nil, apierrors.NewConflict(podsGVR.GroupResource(), p.GetName(), nil)
		}
		updated := cur.DeepCopy()
		updated.Status.ContainerStatuses = patch.Status.ContainerStatuses
		updated.ResourceVersion = next()
		if err := c.Tracker().Update(podsGVR, updated, p.GetNamespace()); err != nil {
			return true, nil, err
		}
		return true, updated.DeepCopy(), nil
	})
	return c
}
