package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
func (b *bench) crdMemory(ctx context.Context, objects int) (*report.CRDMemory, error) {
	logger := klog.FromContext(ctx)
	m := &report.CRDMemory{ServerMemory: report.ServerMemory{Objects: objects}}
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
		if err := ctrlbench.DeleteNamespace(ctx, b.kube, crdNamespace, 2*time.Second); err != nil {
			logger.Error(err, "Deleting the CRD objects' namespace")
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
	err = rawclient.Each(ctx, b.f.clients, m.Objects, func(ctx context.Context, i int) error {
		cs := ctrlbench.ScaleCloneSetObject(fmt.Sprintf("w-%05d", i), int32(b.f.scale.pods))
		cs.APIVersion = apibench.CRDGroup + "/v1alpha1"
		raw, err := json.Marshal(cs)
		if err != nil {
			return err
		}
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil {
			return err
		}
		delete(obj, "status")
		_, err = b.dyn.Resource(crdCloneSets).Namespace(crdNamespace).Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
		return err
	})
	if err != nil {
		return m, fmt.Errorf("CRD objects: %w", err)
	}
	logger.Info("CRD memory: with the objects", "objects", m.Objects)
	m.WithObjects = b.servers(ctx)
	return m, nil
}
