package devruntime

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/internal/fakecri"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/daemon"
)

// RunDaemon runs the node daemon of o against a fake runtime and kubelet simulator for
// its node, served on d's socket, until ctx ends or either of them fails. The daemon is
// daemon.Run, unchanged: only its runtime endpoint differs from kruise-node-daemon's.
func RunDaemon(ctx context.Context, o *daemon.Options, d *Options) error {
	logger := klog.FromContext(ctx)
	socket, err := filepath.Abs(d.Socket)
	if err != nil {
		return fmt.Errorf("--fake-runtime-socket: %w", err)
	}
	// The simulated kubelet gets a client of its own: a real kubelet's pod status
	// writes do not take the daemon's budget either.
	cfg, err := o.ClientConfig()
	if err != nil {
		return err
	}
	simCfg := rest.CopyConfig(cfg)
	simCfg.QPS, simCfg.Burst = 50, 100
	simCfg = rest.AddUserAgent(simCfg, "kruise-node-daemon-fake-kubelet/"+o.NodeName)
	simClient, err := kubernetes.NewForConfig(simCfg)
	if err != nil {
		return err
	}

	// Serving before the daemon starts: it then dials a socket that exists.
	srv := NewServer()
	if err := srv.Start(socket); err != nil {
		return fmt.Errorf("fake runtime: %w", err)
	}
	defer srv.Stop()
	logger.Info("Serving a fake container runtime (development only)", "socket", socket)

	// Exec probes and hooks answer by the pod's fakecri.ExecExitCodeAnnotation.
	sim := fakecri.NewKubeletSim(srv, simClient, o.NodeName)
	srv.SetExecHandler(sim.PodAnnotationExec())

	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	simErr := make(chan error, 1)
	go func() {
		err := sim.Run(ctx)
		if err == nil && ctx.Err() == nil {
			err = errors.New("stopped")
		}
		if err != nil && ctx.Err() == nil {
			err = fmt.Errorf("kubelet simulator of node %s: %w", o.NodeName, err)
			cancel(err) // the daemon returns it as the cause of its end
		} else {
			err = nil
		}
		simErr <- err
	}()
	err = daemon.Run(ctx, o, "unix://"+socket)
	cancel(nil)
	if err == nil {
		err = <-simErr
	} else {
		<-simErr
	}
	return err
}
