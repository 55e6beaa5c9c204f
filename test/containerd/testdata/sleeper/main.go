// Command sleeper is the only program of the image the containerd test builds: it
// stands in for the pause image and for an application container, and serves as a
// preStop hook. It is built statically, so the image needs no libc.
//
//	sleeper             wait for SIGTERM or SIGINT, then exit 0 (what a well-behaved app does)
//	sleeper -ignore-term  ignore SIGTERM, so only the runtime's SIGKILL after the grace period ends it
//	sleeper -touch FILE   create FILE and exit 0 (the preStop hook leaves proof it ran)
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ignoreTerm := flag.Bool("ignore-term", false, "ignore SIGTERM")
	touch := flag.String("touch", "", "create this file and exit")
	flag.Parse()

	if *touch != "" {
		if err := os.WriteFile(*touch, []byte("ran\n"), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}

	sigs := make(chan os.Signal, 1)
	if *ignoreTerm {
		signal.Ignore(syscall.SIGTERM)
		signal.Notify(sigs, syscall.SIGINT)
	} else {
		signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	}
	fmt.Println("sleeping")
	s := <-sigs
	fmt.Println("exiting on", s)
}
