package main

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/rawclient"
	"github.com/kruise-native/kruise-native/test/bench/internal/report"
)

const kruiseMemNamespace = "bench-scale-kruise-mem"

// kruiseMemory reads what kruise-apiserver (its embedded etcd included) adds to hold
// the same CloneSets crdMemory put in the CRD, under the same conditions: created by
// the benchmark's client with no controller acting on them (kruise-controller is
// stopped meanwhile), so both servers hold the same objects after the same writes.
// They are deleted again, and kruise-controller started, before the sides run.
func (b *bench) kruiseMemory(ctx context.Context, objects int, startController func(context.Context) error) (m *report.ServerMemory, err error) {
	logger := klog.FromContext(ctx)
	m = &report.ServerMemory{Objects: objects}
	if err := b.stopAndFree(ctx, "kruise-controller"); err != nil {
		return m, fmt.Errorf("stopping kruise-controller: %w", err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Minute)
		defer cancel()
		if derr := b.deleteCloneSetsAndNamespace(ctx, kruiseMemNamespace); derr != nil {
			logger.Error(derr, "Deleting the memory step's CloneSets")
		}
		if serr := startController(ctx); serr != nil && err == nil {
			err = fmt.Errorf("starting kruise-controller again: %w", serr)
		}
	}()
	logger.Info("kruise-apiserver memory: before the objects")
	m.Before = b.servers(ctx)
	if err := b.createNamespace(ctx, kruiseMemNamespace); err != nil {
		return m, err
	}
	err = rawclient.Each(ctx, b.f.clients, m.Objects, func(ctx context.Context, i int) error {
		cs := ctrlbench.ScaleCloneSetObject(fmt.Sprintf("w-%05d", i), int32(b.f.scale.pods))
		_, err := b.kruise.AppsV1alpha1().CloneSets(kruiseMemNamespace).Create(ctx, cs, metav1.CreateOptions{})
		return err
	})
	if err != nil {
		return m, err
	}
	logger.Info("kruise-apiserver memory: with the objects", "objects", m.Objects)
	m.WithObjects = b.servers(ctx)
	return m, nil
}

// deleteCloneSetsAndNamespace deletes the CloneSets first (nothing holds them: no
// finalizers, and no controller runs), then the namespace, and waits until it is gone.
func (b *bench) deleteCloneSetsAndNamespace(ctx context.Context, ns string) error {
	err := b.kruise.AppsV1alpha1().CloneSets(ns).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting the CloneSets of %s: %w", ns, err)
	}
	return ctrlbench.DeleteNamespace(ctx, b.kube, ns, 2*time.Second)
}
