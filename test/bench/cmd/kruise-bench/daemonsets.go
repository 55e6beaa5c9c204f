package main

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
)

// daemonSets runs kube's DaemonSet and the Advanced DaemonSet (in place, and
// recreating) over dsNodes kwok nodes (the stack's, plus nodes added for the phase and
// removed after it): each created (0 → one ready pod per node), then its image rolled,
// in kwok's immediate mode.
func (b *bench) daemonSets(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	reader, err := audit.NewReader(b.audit)
	if err != nil {
		return err
	}
	if b.f.dsNodes > b.f.nodes {
		remove, err := ctrlbench.AddKwokNodes(ctx, b.kube, b.f.nodes, b.f.dsNodes)
		if err != nil {
			return err
		}
		defer remove(context.WithoutCancel(ctx))
	}
	// kruise-controller gives every node a NodeImage: let it finish for the added
	// nodes before the first kind runs, or that work would load only the first run.
	if err := nodeImagesPerNode(ctx, b); err != nil {
		return err
	}
	env := ctrlbench.Env{Kube: b.kube, Kruise: b.kruise, Audit: reader, KruiseWrites: b.kruiseWrites}
	o := ctrlbench.Options{Pods: max(b.f.dsNodes, b.f.nodes), PhaseTimeout: b.f.phaseTimeout}
	for _, kind := range ctrlbench.DaemonSetKinds {
		env.PIDs = b.pids()
		phases, err := ctrlbench.Run(ctx, env, "immediate", kind, o)
		b.res.DaemonSets = append(b.res.DaemonSets, phases...)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			logger.Error(err, "DaemonSet scenario failed", "workload", kind)
			b.res.Errors = append(b.res.Errors, fmt.Sprintf("daemonsets %s: %v", kind, err))
		}
	}
	return nil
}

// nodeImagesPerNode waits until every Ready node has its NodeImage (the controller
// gives one to Ready nodes only).
func nodeImagesPerNode(ctx context.Context, b *bench) error {
	return wait.PollUntilContextTimeout(ctx, time.Second, 3*time.Minute, true, func(ctx context.Context) (bool, error) {
		nodes, err := b.kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		images, err := b.kruise.AppsV1alpha1().NodeImages().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		ready := 0
		for i := range nodes.Items {
			for _, c := range nodes.Items[i].Status.Conditions {
				if c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue {
					ready++
				}
			}
		}
		return len(images.Items) >= ready, nil
	})
}
