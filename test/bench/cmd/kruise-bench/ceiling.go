package main

import (
	"context"
	"fmt"

	"github.com/kruise-native/kruise-native/test/bench/internal/ceiling"
)

// ceiling: pods per second for a bare client with no rate limit, with the Pod webhook
// registered and without it.
func (b *bench) ceiling(ctx context.Context) error {
	quiet := b.pids()
	for i := range b.f.nodes {
		name := fmt.Sprintf("kruise-node-daemon-kwok-node-%d", i)
		if pid, err := b.st.PID(name); err == nil {
			quiet[name] = pid
		}
	}
	o := ceiling.Options{Pods: b.f.ceilingPods, Clients: b.f.clients, Nodes: b.f.nodes, Rounds: b.f.ceilingRounds,
		Quiet: quiet, QuietCores: b.f.ceilingQuietCores}
	r, err := ceiling.Run(ctx, b.st.Config, b.kube, o, b.pids())
	if r != nil {
		b.res.Ceiling = r
	}
	return err
}
