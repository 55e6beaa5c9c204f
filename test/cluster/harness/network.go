package harness

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

func (l Layout) cniConfDir() string { return l.StatePath("cni", "net.d") }

// cniConfig is the pod network: one bridge with host-local addresses and the host as
// gateway, portmap for hostPorts (containerd adds loopback itself from CNIBinDir). No
// ipMasq: pods talk to the node and to each other only, and must not reach another host.
// host-local keeps its leases under StateDir instead of /var/lib/cni/networks.
func cniConfig(l Layout) string {
	return fmt.Sprintf(`{
  "cniVersion": "0.4.0",
  "name": %q,
  "plugins": [
    {
      "type": "bridge",
      "bridge": %q,
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "dataDir": %q,
        "ranges": [[{"subnet": %q}]],
        "routes": [{"dst": "0.0.0.0/0"}]
      }
    },
    {"type": "portmap", "capabilities": {"portMappings": true}}
  ]
}
`, CNINetwork, PodBridge, l.StatePath("cni", "ipam"), PodSubnet)
}

// setupNetwork creates the node device with NodeIP and the CNI configuration, after
// checking that none of the node's names and ranges is in use on this host.
func setupNetwork(l Layout) error {
	if err := checkNetworkFree(); err != nil {
		return err
	}
	for _, args := range [][]string{
		{"link", "add", NodeDevice, "type", "bridge"},
		{"addr", "add", NodeIP + "/32", "dev", NodeDevice},
		{"link", "set", NodeDevice, "up"},
	} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			return fmt.Errorf("ip %s: %w: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
		}
	}
	if err := os.MkdirAll(l.cniConfDir(), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(l.cniConfDir(), "10-kruise-native-test.conflist"), []byte(cniConfig(l)), 0o644)
}

// checkNetworkFree refuses a host where the node's devices exist or an address or route
// overlaps the node, pod or service ranges: the harness would take over someone's network.
func checkNetworkFree() error {
	links, err := linkNames()
	if err != nil {
		return err
	}
	for _, n := range []string{NodeDevice, PodBridge} {
		for _, have := range links {
			if have == n {
				return fmt.Errorf("network device %s exists already", n)
			}
		}
	}
	var ranges []*net.IPNet
	for _, c := range []string{PodCIDR, ServiceCIDR, NodeIP + "/32"} {
		_, n, _ := net.ParseCIDR(c)
		ranges = append(ranges, n)
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return err
	}
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		for _, r := range ranges {
			if r.Contains(ipn.IP) || ipn.Contains(r.IP) {
				return fmt.Errorf("address %s on this host overlaps %s", ipn, r)
			}
		}
	}
	out, err := exec.Command("ip", "-4", "route", "show", "table", "main").Output()
	if err != nil {
		return err
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] == "default" {
			continue
		}
		_, dst, err := net.ParseCIDR(f[0])
		if err != nil {
			if ip := net.ParseIP(f[0]); ip != nil {
				dst = &net.IPNet{IP: ip, Mask: net.CIDRMask(32, 32)}
			} else {
				continue
			}
		}
		for _, r := range ranges {
			if r.Contains(dst.IP) || dst.Contains(r.IP) {
				return fmt.Errorf("route %q on this host overlaps %s", line, r)
			}
		}
	}
	return nil
}

// shareRunDir makes RunDir a mount point of its own with shared propagation. The node
// daemon mounts the directory of containerd's socket (RunDir/containerd) with
// HostToContainer propagation, which containerd allows only below a shared or slave
// mount; "/" is a private mount on this machine (on a systemd host it is shared). The
// bind mount goes with the teardown's unmounting of everything under RunDir.
func shareRunDir(l Layout) error {
	if err := os.MkdirAll(l.Run, 0o711); err != nil {
		return err
	}
	if err := syscall.Mount(l.Run, l.Run, "", syscall.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind-mounting %s: %w", l.Run, err)
	}
	if err := syscall.Mount("", l.Run, "", syscall.MS_SHARED|syscall.MS_REC, ""); err != nil {
		return fmt.Errorf("making %s shared: %w", l.Run, err)
	}
	return nil
}

// setSysctl writes a sysctl the node needs; the snapshot restores it.
func setSysctl(key, value string) error {
	return os.WriteFile(filepath.Join("/proc/sys", strings.ReplaceAll(key, ".", "/")), []byte(value), 0o644)
}

// nodeSysctls: bridged pod traffic must pass iptables (kube-proxy's Service DNAT between
// two pods on the bridge), and the node forwards between the bridge and itself.
var nodeSysctls = [][2]string{
	{"net.bridge.bridge-nf-call-iptables", "1"},
	{"net.ipv4.ip_forward", "1"},
}
