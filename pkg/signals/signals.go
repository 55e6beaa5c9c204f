// Package signals gives commands a context that SIGTERM or SIGINT cancels, and exits
// the process on a second signal, as k8s.io/apiserver/pkg/server's SetupSignalContext
// does. Commands that serve no API use this one: importing that package links the
// whole generic API server (several hundred packages and their init work) into a
// binary that never runs it, and the binary's pages and its init-time heap count in
// the process's resident memory.
package signals

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Context returns a context cancelled at the first SIGTERM or SIGINT; a second one
// exits the process with code 1. Call it once per process.
func Context() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	c := make(chan os.Signal, 2)
	signal.Notify(c, syscall.SIGTERM, os.Interrupt)
	go func() {
		<-c
		cancel()
		<-c
		os.Exit(1)
	}()
	return ctx
}
