package main

import (
	"context"
	"fmt"

	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/test/bench/internal/apibench"
	"github.com/kruise-native/kruise-native/test/bench/internal/profile"
)

// api compares the CRD with kruise-apiserver. kruise-controller is stopped meanwhile:
// it would reconcile the kruise-apiserver CloneSets (status writes) but not the CRD's.
func (b *bench) api(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	if err := b.st.Stop(ctx, "kruise-controller"); err != nil {
		return fmt.Errorf("stopping kruise-controller: %w", err)
	}
	defer func() {
		if err := b.st.Start(ctx, "kruise-controller"); err != nil {
			logger.Error(err, "Starting kruise-controller again")
		}
	}()
	if err := apibench.InstallCRD(ctx, b.st.Root, b.workDir, b.dyn); err != nil {
		return err
	}
	o := apibench.Options{Objects: b.f.objects, Clients: b.f.clients, Lists: b.f.lists, Watchers: b.f.watchers, WatchWrites: b.f.watchWrites}
	direct := b.kruiseAPIServerConfig()
	crd := apibench.PairedTarget{Target: apibench.Target{Name: "crd", Group: apibench.CRDGroup, Namespace: "bench-api-crd"}, Config: b.st.Config}
	kruise := apibench.PairedTarget{Target: apibench.Target{Name: "kruise-apiserver", Group: "apps.kruise.io", Namespace: "bench-api-kruise", Protobuf: true}, Config: b.st.Config}
	for _, t := range []apibench.PairedTarget{
		crd, kruise,
		// The same server without kube-apiserver's proxy in front: what the aggregation
		// hop costs (clients never do this; it explains the difference).
		{Target: apibench.Target{Name: "kruise-apiserver-direct", Group: "apps.kruise.io", Namespace: "bench-api-direct", Protobuf: true}, Config: direct},
	} {
		if err := b.createNamespace(ctx, t.Namespace); err != nil {
			return err
		}
		server := profile.Target{Name: "kube-apiserver", Config: b.st.Config}
		if t.Name != "crd" {
			server = profile.Target{Name: "kruise-apiserver", Config: direct}
		}
		var pending []func() *profile.Capture
		var busy <-chan struct{} // closed when the CPU profile under way ends
		o.OnStage = func(stage string) {
			if !b.f.profile {
				return
			}
			rel := "profiles-" + b.res.Date
			dir := b.outDir + "/" + rel
			switch stage {
			case "created":
				if c := profile.Heap(ctx, server, t.Name+"-after-create", dir, rel); c != nil {
					b.res.Profiles = append(b.res.Profiles, *c)
				}
			case "create", "list-json", "watch":
				if busy != nil {
					if stage == "watch" {
						// The watch profile is the one issue 22 asks about: wait (before the
						// watch starts, outside what is measured) for the list's to end.
						<-busy
					}
					select {
					case <-busy:
					default:
						return // a server runs one CPU profile at a time
					}
				}
				if (stage == "create" || stage == "watch") && t.Name == "kruise-apiserver" {
					// what the proxy hop costs kube-apiserver
					front := profile.Target{Name: "kube-apiserver", Config: b.st.Config}
					pending = append(pending, profile.CPU(ctx, front, 10, "proxying-"+t.Name+"-"+stage, dir, rel))
				}
				wait := profile.CPU(ctx, server, 10, t.Name+"-"+stage, dir, rel)
				ch := make(chan struct{})
				busy = ch
				var c *profile.Capture
				go func() { c = wait(); close(ch) }()
				pending = append(pending, func() *profile.Capture { <-ch; return c })
			}
		}
		r, err := apibench.Run(ctx, t.Config, t.Target, o, b.pids())
		for _, wait := range pending {
			if c := wait(); c != nil {
				b.res.Profiles = append(b.res.Profiles, *c)
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", t.Name, err)
		}
		b.res.API = append(b.res.API, r)
	}
	if b.f.createRounds == 0 {
		return nil
	}
	logger.Info("Paired creates", "rounds", b.f.createRounds, "objects", b.f.roundObjects)
	pairs, err := apibench.RunPairedCreates(ctx, crd, kruise, b.f.createRounds, b.f.roundObjects, b.f.clients)
	if err != nil {
		return fmt.Errorf("paired creates: %w", err)
	}
	b.res.APICreatePairs = pairs
	return nil
}
