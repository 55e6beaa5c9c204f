package main

import (
	"context"

	"github.com/kruise-native/kruise-native/test/bench/internal/ceiling"
)

// ceiling: pods per second for a bare client with no rate limit, with the Pod webhook
// registered and without it.
func (b *bench) ceiling(ctx context.Context) error {
	r, err := ceiling.Run(ctx, b.st.Config, b.kube, ceiling.Options{Pods: b.f.ceilingPods, Clients: b.f.clients, Nodes: b.f.nodes, Rounds: b.f.ceilingRounds}, b.pids())
	if r != nil {
		b.res.Ceiling = r
	}
	return err
}
