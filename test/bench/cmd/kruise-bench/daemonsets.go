package main

import (
	"context"
	"fmt"

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
