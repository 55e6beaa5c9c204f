package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/test/bench/internal/report"
)

// growth is the opt-in growth phase: the scale phase at each of -growth-sizes, the
// sizes in ascending order, for the cost's slopes against the number of pods.
func (b *bench) growth(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	sizes, err := parseSizes(b.f.growthSizes)
	if err != nil {
		return err
	}
	sides, err := scaleSides(b.f)
	if err != nil {
		return err
	}
	var names []string
	for _, n := range sizes {
		names = append(names, strconv.Itoa(n))
	}
	b.res.Notes = append(b.res.Notes, scaleNotes(b.f, sides, "N")...)
	b.res.Notes = append(b.res.Notes, fmt.Sprintf("Growth: the scale phase at N = %s workloads of %d pods each, one size after the other on the same stack (each size's workloads, pods and namespaces gone before the next); the slopes are least-squares lines through the sizes' figures against their pods, and the extrapolation is those lines at %d pods.",
		strings.Join(names, ", "), b.f.scale.pods, report.GrowthExtrapolatePods))
	g := &report.GrowthResults{PodsEach: b.f.scale.pods}
	b.res.Growth = g
	var errs []string
	for _, n := range sizes {
		logger.Info("Growth: the scale phase", "workloads", n)
		res, err := b.scaleAt(ctx, sides, n)
		if res != nil {
			g.Sizes = append(g.Sizes, res)
		}
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			logger.Error(err, "Growth size failed", "workloads", n)
			errs = append(errs, fmt.Sprintf("%d workloads: %v", n, err))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// parseSizes reads a comma-separated list of positive workload counts, sorted.
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, p := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("-growth-sizes: %q is not a positive number of workloads", p)
		}
		out = append(out, n)
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("-growth-sizes: a slope needs at least two sizes, got %q", s)
	}
	slices.Sort(out)
	return out, nil
}
