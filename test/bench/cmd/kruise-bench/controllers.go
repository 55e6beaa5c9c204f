package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/test/bench/internal/audit"
	"github.com/kruise-native/kruise-native/test/bench/internal/ctrlbench"
	"github.com/kruise-native/kruise-native/test/bench/internal/stack"
)

// controllers runs every workload in kwok's immediate mode, then with the modeled
// container start (kwok restarted with delayed Stages), then puts kwok back.
func (b *bench) controllers(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	reader, err := audit.NewReader(b.audit)
	if err != nil {
		return err
	}
	env := ctrlbench.Env{Kube: b.kube, Kruise: b.kruise, Audit: reader, KruiseWrites: b.kruiseWrites}
	modes := []struct {
		name   string
		stages string // kwok Stage directory; empty = the stack's own
	}{{name: "immediate"}}
	if b.f.startDelay > 0 {
		dir := filepath.Join(b.workDir, "kwok-delayed")
		if err := ctrlbench.WriteDelayedStages(filepath.Join(b.st.Root, "hack", "local", "kwok"), dir, b.f.startDelay.Milliseconds()); err != nil {
			return err
		}
		modes = append(modes, struct{ name, stages string }{fmt.Sprintf("%s container start", b.f.startDelay), dir})
	}
	for _, m := range modes {
		if m.stages != "" {
			if err := b.restartKwok(ctx, m.stages); err != nil {
				return err
			}
		}
		for _, kind := range []string{ctrlbench.Deployment, ctrlbench.CloneSetInPlace, ctrlbench.CloneSetRecreate} {
			env.PIDs = b.pids()
			phases, err := ctrlbench.Run(ctx, env, m.name, kind, ctrlbench.Options{Pods: b.f.pods, PhaseTimeout: b.f.phaseTimeout})
			b.res.Controller = append(b.res.Controller, phases...)
			if err != nil {
				if ctx.Err() != nil {
					return err
				}
				logger.Error(err, "Scenario failed", "mode", m.name, "workload", kind)
				b.res.Errors = append(b.res.Errors, fmt.Sprintf("controller %s %s: %v", m.name, kind, err))
			}
		}
		if m.stages != "" {
			if err := b.restartKwok(ctx, ""); err != nil {
				return err
			}
		}
	}
	return nil
}

// kruiseWrites scrapes kruise_controller_api_writes_total, keyed "resource verb".
func (b *bench) kruiseWrites(ctx context.Context) (map[string]float64, error) {
	raw, err := b.st.Scrape(ctx, "kruise-controller", "kruise_controller_api_writes_total")
	if err != nil {
		return nil, err
	}
	out := map[string]float64{}
	for labels, v := range raw {
		out[stack.LabelValue(labels, "resource")+" "+stack.LabelValue(labels, "verb")] += v
	}
	return out, nil
}

// restartKwok restarts kwok with the Stages of dir (empty: the stack's own) and waits
// until it manages every node again.
func (b *bench) restartKwok(ctx context.Context, dir string) error {
	if err := b.st.Stop(ctx, "kwok"); err != nil {
		return fmt.Errorf("stopping kwok: %w", err)
	}
	// kwok manages a node's pods only while it holds the node's Lease: a new kwok would
	// wait for the old one's Leases to expire (40 s) and the first phase after the
	// restart would count that wait. Deleting them lets the new kwok take them at once.
	leases := b.kube.CoordinationV1().Leases(corev1.NamespaceNodeLease)
	if err := leases.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
		return fmt.Errorf("deleting the node Leases: %w", err)
	}
	var env []string
	if dir != "" {
		env = append(env, "KWOK_STAGES="+dir)
	}
	if err := b.st.Start(ctx, "kwok", env...); err != nil {
		return fmt.Errorf("starting kwok with the Stages of %q: %w", dir, err)
	}
	err := wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		l, err := leases.List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		held := 0
		for _, lease := range l.Items {
			if lease.Spec.HolderIdentity != nil && *lease.Spec.HolderIdentity != "" {
				held++
			}
		}
		return held >= b.f.nodes, nil
	})
	if err != nil {
		return fmt.Errorf("waiting for the new kwok to hold every node Lease: %w", err)
	}
	return nil
}
