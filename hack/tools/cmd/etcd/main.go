// Command etcd runs the upstream etcd server (go.etcd.io/etcd/server/v3) for the
// local control plane. It exists so etcd is built from the Go module proxy with the
// same toolchain as everything else in hack/tools.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
