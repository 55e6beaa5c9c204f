package main

import (
	"context"
	"fmt"

	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
)

// jobs runs a BroadcastJob over jobNodes kwok nodes (the stack's, plus nodes added for
// the phase and removed after it) against kube's Job with parallelism = completions =
// jobNodes, in kwok's immediate mode with the stack's 1 s modelled job run time.
func (b *bench) jobs(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	reader, err := audit.NewReader(b.audit)
	if err != nil {
		return err
	}
	if b.f.jobNodes > b.f.nodes {
		remove, err := ctrlbench.AddKwokNodes(ctx, b.kube, b.f.nodes, b.f.jobNodes)
		if err != nil {
			return err
		}
		defer remove(context.WithoutCancel(ctx))
	}
	env := ctrlbench.Env{Kube: b.kube, Kruise: b.kruise, Audit: reader, KruiseWrites: b.kruiseWrites}
	for _, kind := range []string{ctrlbench.KubeJob, ctrlbench.BroadcastJob} {
		env.PIDs = b.pids()
		r, err := ctrlbench.RunJob(ctx, env, kind, max(b.f.jobNodes, b.f.nodes), b.f.phaseTimeout)
		b.res.Jobs = append(b.res.Jobs, r)
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			logger.Error(err, "Job scenario failed", "workload", kind)
			b.res.Errors = append(b.res.Errors, fmt.Sprintf("jobs %s: %v", kind, err))
		}
	}
	return nil
}
