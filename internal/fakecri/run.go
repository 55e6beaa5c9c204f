package fakecri

import (
	"context"
	"fmt"

	"k8s.io/client-go/kubernetes"
)

// RunForNode is the fake runtime of one kwok node: it serves a new Server on socketPath
// (a node daemon then uses "unix://"+socketPath as its CRI endpoint) and runs a
// KubeletSim for nodeName with kubeClient until ctx is done. The client needs to get/list/watch pods and patch
// pods/status. It returns an error when the socket cannot be served or the simulator
// cannot start, and nil after ctx is done.
func RunForNode(ctx context.Context, socketPath, nodeName string, kubeClient kubernetes.Interface) error {
	return RunServerForNode(ctx, NewServer(), socketPath, nodeName, kubeClient)
}

// RunServerForNode is RunForNode with a Server the caller made (to set pull behaviours
// or pre-load images first, or to look into it while it runs).
func RunServerForNode(ctx context.Context, srv *Server, socketPath, nodeName string, kubeClient kubernetes.Interface) error {
	if err := srv.Start(socketPath); err != nil {
		return err
	}
	defer srv.Stop()
	if err := NewKubeletSim(srv, kubeClient, nodeName).Run(ctx); err != nil {
		return fmt.Errorf("fake runtime of node %s: %w", nodeName, err)
	}
	return nil
}
