// Package devruntime is kruise-node-daemon-dev, for the local stack and integration
// tests: the node daemon (pkg/nodedaemon/daemon, the same code as kruise-node-daemon)
// acting through a fake container runtime served in the same process on a unix socket
// (flag --fake-runtime-socket): internal/fakecri's CRI server plus its kubelet
// simulator for the daemon's kwok node. kruise-node-daemon never links this package or
// fakecri (cmd/node-daemon's test checks it).
//
// Tests cannot reach into a daemon process to configure the fake runtime, so its pull
// behaviour is chosen by the image's registry host. These hosts are under ".invalid",
// which never resolves (RFC 2606), so the names cannot clash with a real registry:
//
//	fail.invalid/<any>      every attempt fails at once, codes.Unknown, with a
//	                        registry-like error ("... 503 Service Unavailable")
//	notfound.invalid/<any>  every attempt fails with codes.NotFound ("... not found")
//	slow.invalid/<any>      every attempt takes SlowPullLatency, then succeeds
//	flaky.invalid/<any>     the first 2 attempts of each reference fail with a
//	                        connection reset, later ones succeed
//	private.invalid/<any>   every attempt without PrivateUsername/PrivatePassword
//	                        fails as a registry refusing it; with them it succeeds
//
// Every other image pulls successfully at once. ExecSync (exec probes, preStop hooks)
// exits 0 unless the pod carries fakecri.ExecExitCodeAnnotation
// ("fakecri.kruise.io/exec-exit-code: <code>", or ".<container>" appended for one
// container): a test flips an exec probe by annotating the pod. The runtime's state lives in memory: a
// restarted daemon starts with no images and new containers (the simulator gives the
// node's running pods new container IDs, as after a node reboot).
package devruntime

import (
	"time"

	"google.golang.org/grpc/codes"

	"github.com/kruise-native/kruise-native/internal/fakecri"
)

// SlowPullLatency is how long a pull of a slow.invalid image takes: long enough for a
// test to see it Pulling and kill the daemon in the middle, short enough to wait for.
const SlowPullLatency = 15 * time.Second

// Registry hosts with a fixed pull behaviour (see the package comment).
const (
	FailRegistry     = "fail.invalid"
	NotFoundRegistry = "notfound.invalid"
	SlowRegistry     = "slow.invalid"
	FlakyRegistry    = "flaky.invalid"
	PrivateRegistry  = "private.invalid"
)

// The credentials PrivateRegistry accepts (a pull secret's dockerconfigjson carries them).
const (
	PrivateUsername = "kruise"
	PrivatePassword = "pull-secret-password"
)

// FailMessage is what every attempt to pull from FailRegistry says (after containerd's
// `failed to pull and unpack image "<ref>": ` prefix).
const FailMessage = `failed to resolve reference: unexpected status from HEAD request: 503 Service Unavailable`

// NewServer returns a fake runtime with the pull behaviours of the package comment.
func NewServer() *fakecri.Server {
	srv := fakecri.NewServer()
	srv.SetPullBehavior(FailRegistry+"/*", fakecri.PullBehavior{Message: FailMessage, Code: codes.Unknown})
	srv.SetPullBehavior(NotFoundRegistry+"/*", fakecri.PullBehavior{NotFound: true})
	srv.SetPullBehavior(SlowRegistry+"/*", fakecri.PullBehavior{Latency: SlowPullLatency})
	srv.SetPullBehavior(FlakyRegistry+"/*", fakecri.PullBehavior{FailFirst: 2})
	srv.SetPullBehavior(PrivateRegistry+"/*", fakecri.PullBehavior{
		Credentials: &fakecri.Credentials{Username: PrivateUsername, Password: PrivatePassword}})
	return srv
}
