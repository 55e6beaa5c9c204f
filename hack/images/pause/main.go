// Command pause is the pod sandbox image's process for a node that cannot reach a
// registry (containerd's sandbox_image): it holds the pod's namespaces by doing nothing
// until it is told to stop. As PID 1 of a pod that shares its PID namespace it also
// reaps the zombies of the pod's other processes, as kubernetes' pause does.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGCHLD)
	for s := range sigs {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			var ws syscall.WaitStatus
			pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
	}
}
