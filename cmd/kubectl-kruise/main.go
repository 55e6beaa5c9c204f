// Command kubectl-kruise is the kubectl plugin for Kruise workloads: on PATH, it runs
// as `kubectl kruise ...`. The commands live in pkg/kubectlkruise.
package main

import (
	"os"

	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/component-base/cli"

	"github.com/kruise-native/kruise-native/pkg/kubectlkruise"
)

func main() {
	cmd := kubectlkruise.NewCommand(genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr})
	os.Exit(cli.Run(cmd))
}
