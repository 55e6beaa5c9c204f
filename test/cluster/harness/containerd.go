package harness

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/kruise-native/kruise-native/pkg/nodedaemon/criclient"
)

// CNIBinDir is where Debian's containernetworking-plugins installs the plugins.
const CNIBinDir = "/usr/lib/cni"

// containerdConfig is containerd 1.6's configuration (schema 2) for the node. Every path
// that defaults to a system location (/var/lib/containerd, /run/containerd,
// /opt/containerd, /etc/containerd/certs.d, /etc/cni/net.d) is moved under StateDir or
// RunDir. containerd 1.6 still puts shim sockets and fifos under /run/containerd, named
// by a hash of our socket (restoreHost removes what is left).
//
// restrict_oom_score_adj: kubelet asks -998 for every sandbox (and -997 for Guaranteed
// containers); lowering oom_score_adj needs CAP_SYS_RESOURCE, which processes on this
// machine lack, and runc then fails every sandbox with "can't get final child's PID from
// pipe: EOF". With the option the CRI plugin clamps the value to containerd's own, which
// is what a runc wrapper rewriting process.oomScoreAdj in config.json would do, without
// a wrapper. (kubelet's own oomScoreAdj is 0 for the same reason.)
//
// SystemdCgroup false: kubelet runs with the cgroupfs driver. containerd 1.6 lacks the
// RuntimeConfig CRI call through which kubelet would learn the driver, so both are set.
func containerdConfig(l Layout) string {
	q := strconv.Quote
	return fmt.Sprintf(`version = 2
root = %s
state = %s
disabled_plugins = ["io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.snapshotter.v1.zfs"]

[grpc]
  address = %s

[ttrpc]
  address = %s

[debug]
  address = ""
  level = "info"

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
      snapshotter = "overlayfs"
      default_runtime_name = "runc"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
        runtime_type = "io.containerd.runc.v2"
        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
          Root = %s
          SystemdCgroup = false
    [plugins."io.containerd.grpc.v1.cri".cni]
      bin_dir = %s
      conf_dir = %s
      max_conf_num = 1
    [plugins."io.containerd.grpc.v1.cri".registry]
      config_path = %s
`,
		q(l.StatePath("containerd", "root")), q(l.RunPath("containerd", "state")),
		q(l.ContainerdSocket()), q(l.ContainerdSocket()+".ttrpc"),
		q(l.StatePath("containerd", "opt")),
		q(l.pauseImage()),
		q(l.RunPath("containerd", "runc")),
		q(CNIBinDir), q(l.cniConfDir()),
		q(l.registryHostsDir()),
	)
}

func (l Layout) pauseImage() string       { return PauseImageRepo + ":" + l.Version }
func (l Layout) registryHostsDir() string { return l.StatePath("containerd", "certs.d") }

// startContainerd writes the configuration and starts containerd, and waits for its CRI
// plugin to answer.
func (c *Cluster) startContainerd(ctx context.Context) error {
	l := c.Layout
	for _, d := range []string{l.StatePath("containerd"), l.RunPath("containerd"), l.registryHostsDir()} {
		if err := os.MkdirAll(d, 0o711); err != nil {
			return err
		}
	}
	cfg := l.StatePath("containerd", "config.toml")
	if err := os.WriteFile(cfg, []byte(containerdConfig(l)), 0o644); err != nil {
		return err
	}
	bin, err := exec.LookPath("containerd")
	if err != nil {
		return fmt.Errorf("containerd is not installed (make test-cluster installs Debian's): %w", err)
	}
	p, err := c.startProc("containerd", bin, "--config", cfg)
	if err != nil {
		return err
	}
	if c.cri == nil {
		if c.cri, err = criclient.New("unix://" + l.ContainerdSocket()); err != nil {
			return err
		}
	}
	return c.waitProc(ctx, p, componentTimeout, "containerd CRI answers", func(ctx context.Context) error {
		_, err := c.cri.Version(ctx, time.Second)
		return err
	})
}

// RestartContainerd stops containerd (SIGTERM: its shims and containers keep running) and
// starts it again, as a package upgrade or a crash and restart would. It returns when CRI
// answers again.
func (c *Cluster) RestartContainerd(ctx context.Context) (time.Duration, error) {
	begin := time.Now()
	if p := c.procs["containerd"]; p != nil {
		p.Stop(20 * time.Second)
	}
	if err := c.startContainerd(ctx); err != nil {
		return 0, err
	}
	return time.Since(begin), nil
}

// ctr runs containerd's client against our containerd, in CRI's namespace.
func (c *Cluster) ctr(ctx context.Context, args ...string) (string, error) {
	full := append([]string{"--address", c.Layout.ContainerdSocket(), "--namespace", "k8s.io"}, args...)
	out, err := exec.CommandContext(ctx, "ctr", full...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("ctr %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// ImportImages loads OCI image tarballs (`make images`) into containerd's CRI namespace.
func (c *Cluster) ImportImages(ctx context.Context, files ...string) error {
	for _, f := range files {
		if _, err := c.ctr(ctx, "images", "import", f); err != nil {
			return err
		}
	}
	return nil
}

// ImageRefs lists the image references containerd's CRI namespace holds.
func (c *Cluster) ImageRefs(ctx context.Context) ([]string, error) {
	resp, err := c.cri.Images.ListImages(ctx, &runtimeapi.ListImagesRequest{})
	if err != nil {
		return nil, err
	}
	var refs []string
	for _, img := range resp.GetImages() {
		refs = append(refs, img.GetRepoTags()...)
	}
	return refs, nil
}

// CRI is the node's CRI client (containerd).
func (c *Cluster) CRI() *criclient.Client { return c.cri }

// removeSandboxes stops and removes every pod sandbox left in containerd (pods kubelet
// did not get to remove): the CNI DEL of each runs, its containers stop and its shim
// exits.
func (c *Cluster) removeSandboxes(ctx context.Context) int {
	if c.cri == nil {
		return 0
	}
	resp, err := c.cri.Runtime.ListPodSandbox(ctx, &runtimeapi.ListPodSandboxRequest{})
	if err != nil {
		c.logf("teardown: listing sandboxes: %v", err)
		return 0
	}
	for _, sb := range resp.GetItems() {
		if _, err := c.cri.Runtime.StopPodSandbox(ctx, &runtimeapi.StopPodSandboxRequest{PodSandboxId: sb.GetId()}); err != nil {
			c.logf("teardown: stopping sandbox %s: %v", sb.GetMetadata().GetName(), err)
		}
		if _, err := c.cri.Runtime.RemovePodSandbox(ctx, &runtimeapi.RemovePodSandboxRequest{PodSandboxId: sb.GetId()}); err != nil {
			c.logf("teardown: removing sandbox %s: %v", sb.GetMetadata().GetName(), err)
		}
	}
	return len(resp.GetItems())
}

// writeRegistryHosts points containerd at the loopback registry: for its own host name
// (plain HTTP, which containerd 1.6 uses only when told), and as the mirror of docker.io,
// so that the examples' short image names (nginx:alpine, busybox) resolve there and no
// pull ever leaves the machine.
func writeRegistryHosts(l Layout, registryHost string) error {
	// server is the mirror too: containerd falls back to the server when every host
	// fails, and docker.io's would send the request off the machine.
	mirror := "http://" + registryHost
	toml := fmt.Sprintf("server = %q\n\n[host.%q]\n  capabilities = [\"pull\", \"resolve\"]\n", mirror, mirror)
	for _, host := range []string{registryHost, "docker.io"} {
		dir := filepath.Join(l.registryHostsDir(), host)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "hosts.toml"), []byte(toml), 0o644); err != nil {
			return err
		}
	}
	return nil
}
