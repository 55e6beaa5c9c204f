// Command local runs the local stack (internal/localstack): `make up` and `make down` call it,
// and so do hack/local-up.sh and hack/local-down.sh.
//
// Usage:
//
//	go run ./hack/local [up]          start whatever is not running yet (idempotent)
//	go run ./hack/local start <name>  start one component of an existing stack, e.g.
//	                                  kruise-apiserver, kruise-controller, kruise-node-daemon-<node>
//	go run ./hack/local stop [name]...  stop everything (CLEAN=1: also remove the data),
//	                                  or these components
//	go run ./hack/local restart <name>
//	go run ./hack/local status        list components, pids and ports
//	go run ./hack/local ports         print the port of every component (KEY=VALUE)
//
// Environment: hack/LOCAL.md (LOCAL_DIR, BIN_DIR, PORT_BASE, NODES, HA, WAIT_TIMEOUT, ...).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/kruise-native/kruise-native/internal/localstack"
	"github.com/kruise-native/kruise-native/internal/reporoot"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		prefix := "local-up"
		if len(os.Args) > 1 && os.Args[1] == "stop" {
			prefix = "local-down"
		}
		fmt.Fprintf(os.Stderr, "%s: ERROR: %v\n", prefix, err)
		os.Exit(1)
	}
}

func run(args []string) error {
	root, err := reporoot.Find()
	if err != nil {
		return err
	}
	o, err := localstack.FromEnv(root)
	if err != nil {
		return err
	}
	s := localstack.New(o)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd := "up"
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "up":
		return s.Up(ctx)
	case "start", "restart":
		if len(args) != 1 {
			return fmt.Errorf("usage: %s <component>", cmd)
		}
		if cmd == "restart" {
			return s.Restart(ctx, args[0])
		}
		return s.Start(ctx, args[0])
	case "stop", "down":
		// a stop must finish even after Ctrl-C
		ctx := context.WithoutCancel(ctx)
		if len(args) == 0 {
			return s.Down(ctx, os.Getenv("CLEAN") == "1")
		}
		for _, c := range args {
			if err := s.Stop(ctx, c); err != nil {
				return err
			}
		}
		return nil
	case "status":
		fmt.Printf("%-32s %-8s %s\n", "COMPONENT", "PID", "PORTS")
		for _, c := range s.Status() {
			pid := "-"
			if c.PID != 0 {
				pid = fmt.Sprint(c.PID)
			}
			fmt.Printf("%-32s %-8s %s\n", c.Name, pid, strings.Trim(fmt.Sprint(c.Ports), "[]"))
		}
		return nil
	case "ports":
		for _, l := range s.Ports.Lines() {
			fmt.Println(l)
		}
		return nil
	case "-h", "--help", "help":
		fmt.Println("usage: go run ./hack/local [up | start <component> | restart <component> | stop [component...] | status | ports]; see hack/LOCAL.md")
		return nil
	}
	return fmt.Errorf("unknown command '%s' (up, start <component>, restart <component>, stop [component...], status, ports)", cmd)
}
