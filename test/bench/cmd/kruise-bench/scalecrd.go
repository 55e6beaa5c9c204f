package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/test/bench/internal/apibench"
	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/rawclient"
	"github.com/kruise-native/kruise-native/test/bench/internal/report"
)

var (
	crdCloneSets = schema.GroupVersionResource{Group: apibench.CRDGroup, Version: "v1alpha1", Resource: "clonesets"}
	crds         = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
)

const crdNamespace = "bench-scale-crd"

// crdMemory reads what kube-apiserver (and etcd) add to hold the scale phase's
// CloneSets as a CRD, then deletes them and the CRD again.
func (b *bench) crdMemory(ctx context.Context) (*report.CRDMemory, error) {
	logger := klog.FromContext(ctx)
	m := &report.CRDMemory{Objects: b.f.scale.workloads}
	crdName := "clonesets." + apibench.CRDGroup
	_, err := b.dyn.Resource(crds).Get(ctx, crdName, metav1.GetOptions{})
	m.PreInstalled = err == nil
	logger.Info("CRD memory: before the CRD")
	m.Before = b.servers(ctx)
	if !m.PreInstalled {
		if err := apibench.InstallCRD(ctx, b.st.Root, b.workDir, b.dyn); err != nil {
			return m, err
		}
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Minute)
		defer cancel()
		if err := b.kube.CoreV1().Namespaces().Delete(ctx, crdNamespace, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			logger.Error(err, "Deleting the CRD objects' namespace")
		}
		err := wait.PollUntilContextCancel(ctx, 2*time.Second, true, func(ctx context.Context) (bool, error) {
			_, err := b.kube.CoreV1().Namespaces().Get(ctx, crdNamespace, metav1.GetOptions{})
			return apierrors.IsNotFound(err), nil
		})
		if err != nil {
			logger.Error(err, "The CRD objects' namespace is not gone")
		}
		if !m.PreInstalled {
			if err := b.dyn.Resource(crds).Delete(ctx, crdName, metav1.DeleteOptions{}); err != nil {
				logger.Error(err, "Deleting the CRD")
			}
		}
	}()
	logger.Info("CRD memory: the CRD, no objects")
	m.CRDOnly = b.servers(ctx)
	if err := b.createNamespace(ctx, crdNamespace); err != nil {
		return m, err
	}
	var mu sync.Mutex
	var errs []error
	rawclient.Parallel(ctx, b.f.clients, m.Objects, func(ctx context.Context, _, i int) {
		cs := ctrlbench.ScaleCloneSetObject(fmt.Sprintf("w-%05d", i), int32(b.f.scale.pods))
		cs.APIVersion = apibench.CRDGroup + "/v1alpha1"
		raw, err := json.Marshal(cs)
		var obj map[string]any
		if err == nil {
			err = json.Unmarshal(raw, &obj)
		}
		if err == nil {
			delete(obj, "status")
			_, err = b.dyn.Resource(crdCloneSets).Namespace(crdNamespace).Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
		}
		if err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}
	})
	if len(errs) > 0 {
		return m, fmt.Errorf("%d of %d CRD creates failed, first: %w", len(errs), m.Objects, errs[0])
	}
	logger.Info("CRD memory: with the objects", "objects", m.Objects)
	m.WithObjects = b.servers(ctx)
	return m, nil
}
