package devruntime

import (
	"errors"

	"github.com/spf13/pflag"
)

// Options are kruise-node-daemon-dev's own flags (beside the daemon's): where to serve
// the fake runtime, in place of kruise-node-daemon's --runtime-endpoint.
type Options struct {
	// Socket is the unix socket the fake runtime serves and the daemon dials.
	Socket string
}

// AddFlags registers --fake-runtime-socket.
func (d *Options) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&d.Socket, "fake-runtime-socket", d.Socket,
		"Unix socket to serve the in-memory fake runtime and kubelet simulator of this node on; the daemon uses it as its "+
			"runtime (images under fail.invalid/, notfound.invalid/, slow.invalid/ and flaky.invalid/ fail or take long to "+
			"pull; see internal/devruntime).")
}

// Validate reports a missing socket.
func (d *Options) Validate() error {
	if d.Socket == "" {
		return errors.New("--fake-runtime-socket is required")
	}
	return nil
}
