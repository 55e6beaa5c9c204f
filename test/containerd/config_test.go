package containerd

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// layout is where one private containerd keeps everything it writes.
type layout struct {
	dir      string // the test's temporary directory
	config   string // config.toml
	socket   string // gRPC (CRI) socket
	root     string // persistent data: content, snapshots, metadata
	state    string // runtime state: task bundles, fifos, sandbox mounts
	runcRoot string // runc's container state, kept away from /run/containerd/runc
	certsDir string // registry host configuration (config_path)
	cniDir   string // empty: pods use the host network, no CNI plugin is involved
	logFile  string // containerd's stdout and stderr
	podLogs  string // container logs written by the CRI plugin
}

func newLayout(dir string) layout {
	return layout{
		dir:      dir,
		config:   filepath.Join(dir, "config.toml"),
		socket:   filepath.Join(dir, "containerd.sock"),
		root:     filepath.Join(dir, "root"),
		state:    filepath.Join(dir, "state"),
		runcRoot: filepath.Join(dir, "runc"),
		certsDir: filepath.Join(dir, "certs.d"),
		cniDir:   filepath.Join(dir, "cni"),
		logFile:  filepath.Join(dir, "containerd.log"),
		podLogs:  filepath.Join(dir, "pod-logs"),
	}
}

// configTOML is containerd 1.6's configuration (schema version 2) for a private
// instance. Every path that defaults to a system location (/var/lib/containerd,
// /run/containerd, /opt/containerd, /etc/containerd/certs.d, /etc/cni) is moved
// into the test's directory; the debug and metrics endpoints stay off, and the
// CRI streaming server (exec/attach URLs) listens on 127.0.0.1 only.
//
// The native snapshotter copies layers instead of mounting overlays, so it works
// inside containers and on any filesystem; it is slower, which does not matter
// for a one-layer image. sandboxImage is pulled by containerd itself at the first
// RunPodSandbox, from the test's registry.
//
// restrict_oom_score_adj keeps containers' oom_score_adj at or above
// containerd's own: the CRI plugin gives sandboxes -998, and lowering the value
// needs CAP_SYS_RESOURCE, which containers and CI sandboxes often lack (runc
// then fails with "can't get final child's PID from pipe"). The score plays no
// part in what the test checks.
func configTOML(l layout, sandboxImage string) string {
	q := strconv.Quote
	return fmt.Sprintf(`version = 2
root = %s
state = %s
# Plugins that probe host devices or filesystems and only add noise here.
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs"]

[grpc]
  address = %s

[ttrpc]
  address = %s

[debug]
  address = ""
  level = "debug"

[metrics]
  address = ""

[plugins]
  [plugins."io.containerd.internal.v1.opt"]
    path = %s
  [plugins."io.containerd.grpc.v1.cri"]
    sandbox_image = %s
    disable_tcp_service = true
    restrict_oom_score_adj = true
    stream_server_address = "127.0.0.1"
    stream_server_port = "0"
    [plugins."io.containerd.grpc.v1.cri".containerd]
      snapshotter = "native"
      default_runtime_name = "runc"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
        runtime_type = "io.containerd.runc.v2"
        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
          Root = %s
    [plugins."io.containerd.grpc.v1.cri".cni]
      bin_dir = %s
      conf_dir = %s
    [plugins."io.containerd.grpc.v1.cri".registry]
      config_path = %s
`,
		q(l.root), q(l.state),
		q(l.socket), q(l.socket+".ttrpc"),
		q(filepath.Join(l.dir, "opt")),
		q(sandboxImage),
		q(l.runcRoot),
		q(filepath.Join(l.cniDir, "bin")), q(filepath.Join(l.cniDir, "conf")),
		q(l.certsDir),
	)
}

// writeRegistryHosts tells containerd to reach host (host:port) over plain HTTP:
// without a hosts.toml, containerd 1.6 speaks HTTPS to every registry, 127.0.0.1
// included. The directory is named after the host as it appears in image names.
func writeRegistryHosts(l layout, host string) error {
	dir := filepath.Join(l.certsDir, host)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("registry hosts dir: %w", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "server = %s\n\n", strconv.Quote("http://"+host))
	fmt.Fprintf(&b, "[host.%s]\n  capabilities = [\"pull\", \"resolve\"]\n", strconv.Quote("http://"+host))
	if err := os.WriteFile(filepath.Join(dir, "hosts.toml"), []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("registry hosts.toml: %w", err)
	}
	return nil
}
