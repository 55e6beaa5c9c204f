// Command testapp is the only program of the test images test/cluster serves from its
// loopback registry in place of nginx, busybox and the other images the examples name
// (no registry is reachable from the test machine). One static binary, called by three
// names:
//
//   - testapp (the images' command): an HTTP server on :80 (PORT overrides) whose
//     GET / answers the image it was started from (/etc/kn-image, written into each
//     image), its pid, start time and $APP_CONFIG, so a test can tell from outside which
//     image and environment a container really runs and whether it was restarted. When the port is taken (a
//     second container of the same pod) it waits for SIGTERM without serving.
//   - sleep N[smhd]: sleeps, as the examples' `sleep 999d` sidecars expect.
//   - sh: not a shell. It runs nothing, prints what it was asked to run and exits 0:
//     the examples' jobs only echo, and a postStart hook only needs to succeed.
//
// SIGTERM ends each at once with status 0, so that pod deletion is quick.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	switch filepath.Base(os.Args[0]) {
	case "sleep":
		os.Exit(sleep(ctx, os.Args[1:]))
	case "sh":
		fmt.Printf("testapp sh: not a shell, ran nothing: %q\n", os.Args[1:])
		return
	}
	os.Exit(serve(ctx))
}

func sleep(ctx context.Context, args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: sleep N[smhd]")
		return 1
	}
	arg := args[0]
	unit := time.Second
	switch {
	case strings.HasSuffix(arg, "d"):
		unit, arg = 24*time.Hour, strings.TrimSuffix(arg, "d")
	case strings.HasSuffix(arg, "h"):
		unit, arg = time.Hour, strings.TrimSuffix(arg, "h")
	case strings.HasSuffix(arg, "m"):
		unit, arg = time.Minute, strings.TrimSuffix(arg, "m")
	case strings.HasSuffix(arg, "s"):
		arg = strings.TrimSuffix(arg, "s")
	}
	n, err := strconv.ParseFloat(arg, 64)
	if err != nil {
		fmt.Fprintf(os.Stderr, "sleep: %v\n", err)
		return 1
	}
	select {
	case <-ctx.Done():
	case <-time.After(time.Duration(n * float64(unit))):
	}
	return 0
}

func serve(ctx context.Context) int {
	image, _ := os.ReadFile("/etc/kn-image")
	started := time.Now().UTC().Format(time.RFC3339Nano)
	port := os.Getenv("PORT")
	if port == "" {
		port = "80"
	}
	ln, err := net.Listen("tcp", ":"+port)
	if err != nil {
		fmt.Printf("testapp %s: not serving (%v); waiting for SIGTERM\n", strings.TrimSpace(string(image)), err)
		<-ctx.Done()
		return 0
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "image=%s pid=%d started=%s APP_CONFIG=%q\n", strings.TrimSpace(string(image)), os.Getpid(), started, os.Getenv("APP_CONFIG"))
	})
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "ok") })
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	fmt.Printf("testapp %s: serving on :%s\n", strings.TrimSpace(string(image)), port)
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
