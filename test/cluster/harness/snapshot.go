package harness

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Snapshot is the part of the host a cluster changes, taken before the harness starts
// anything and again after its teardown; Diff between the two must be empty.
type Snapshot struct {
	// Sysctls: every root-writable value under /proc/sys/{kernel,vm,net} (per-interface
	// ones only for interfaces that exist), minus the volatile ones.
	Sysctls map[string]string `json:"sysctls"`
	// IPTables: "<family> <table>" -> chain declarations ("<chain> <policy>") and rules
	// ("-A ..."), counters dropped.
	IPTables map[string][]string `json:"iptables"`
	// Links: network interface names; Routes: the main routing tables (IPv4 and IPv6).
	Links  []string `json:"links"`
	Routes []string `json:"routes"`
	// Mounts: mount points under the paths a node writes to (watchedMountPrefixes).
	Mounts []string `json:"mounts"`
	// Cgroups: the top-level directories of every cgroup v1 hierarchy ("<controller>/<dir>").
	Cgroups []string `json:"cgroups"`
	// Paths: the entries of system directories kubelet, containerd and CNI write to
	// whatever they are told ("<dir>/<entry>", or "<dir>" alone when it exists empty).
	// StateDir and RunDir are not among them: teardown removes both, and checks that.
	Paths []string `json:"paths"`
}

// volatileSysctls change by themselves.
var volatileSysctls = []string{"kernel/ns_last_pid", "kernel/random/"}

// watchedDirs are the system directories a node may write to although every path the
// harness can configure is private: containerd 1.6's shim sockets and fifos, the CRI
// network namespaces, kubelet's pod log links, libcni's cache.
var watchedDirs = []string{
	"/run/containerd", "/run/containerd/s", "/run/containerd/fifo", "/run/containerd/runc",
	"/run/netns", "/var/run/netns", "/var/lib/cni", "/var/log/pods", "/var/log/containers",
	"/var/lib/kubelet", "/var/lib/containerd", "/opt/containerd", "/opt/cni", "/etc/cni/net.d",
	"/etc/kubernetes", "/run/kubernetes",
}

// watchedMountPrefixes are where the node's mounts live.
var watchedMountPrefixes = []string{"/run/containerd", "/run/netns", "/var/run/netns",
	"/var/lib/kubelet", "/var/lib/containerd", "/sys/fs/cgroup", StateDir, RunDir}

// TakeSnapshot records the host's current state.
func TakeSnapshot() (*Snapshot, error) {
	s := &Snapshot{}
	var err error
	if s.Sysctls, err = readSysctls(); err != nil {
		return nil, err
	}
	if s.IPTables, err = readIPTables(); err != nil {
		return nil, err
	}
	if s.Links, err = linkNames(); err != nil {
		return nil, err
	}
	for _, fam := range []string{"-4", "-6"} {
		out, err := exec.Command("ip", fam, "route", "show", "table", "main").Output()
		if err != nil {
			return nil, fmt.Errorf("ip %s route: %w", fam, err)
		}
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if l != "" {
				s.Routes = append(s.Routes, fam+" "+strings.Join(strings.Fields(l), " "))
			}
		}
	}
	if s.Mounts, err = mountPoints(watchedMountPrefixes); err != nil {
		return nil, err
	}
	s.Cgroups = topCgroups()
	s.Paths = watchedEntries()
	return s, nil
}

func readSysctls() (map[string]string, error) {
	links, err := linkNames()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, top := range []string{"kernel", "vm", "net"} {
		root := filepath.Join("/proc/sys", top)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // a directory that vanished or cannot be read
			}
			key := strings.TrimPrefix(path, "/proc/sys/")
			if d.IsDir() {
				// net/ipv4/conf/<iface>, net/ipv6/neigh/<iface>...: only interfaces that exist
				// now, so that a veth coming and going is not a difference.
				parts := strings.Split(key, "/")
				if len(parts) == 4 && parts[0] == "net" && (parts[2] == "conf" || parts[2] == "neigh") &&
					parts[3] != "all" && parts[3] != "default" && !slices.Contains(links, parts[3]) {
					return filepath.SkipDir
				}
				return nil
			}
			for _, v := range volatileSysctls {
				if strings.HasPrefix(key, v) {
					return nil
				}
			}
			info, err := d.Info()
			if err != nil || info.Mode().Perm()&0o200 == 0 || info.Mode().Perm()&0o400 == 0 {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return nil // write-only in practice (e.g. net/ipv4/route/flush)
			}
			out[key] = strings.Join(strings.Fields(string(b)), " ")
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readIPTables parses iptables-save and ip6tables-save. A table holding only built-in
// chains with policy ACCEPT and no rule is left out: iptables-nft creates such a table
// the first time anyone lists it, and it filters nothing.
func readIPTables() (map[string][]string, error) {
	out := map[string][]string{}
	for _, fam := range []string{"iptables", "ip6tables"} {
		bin := fam + "-save"
		if _, err := exec.LookPath(bin); err != nil {
			continue
		}
		raw, err := exec.Command(bin).Output()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", bin, err)
		}
		for table, lines := range parseIPTablesSave(string(raw)) {
			if !trivialTable(lines) {
				out[fam+" "+table] = lines
			}
		}
	}
	return out, nil
}

// parseIPTablesSave returns table -> chain declarations ("<chain> <policy>") and rules.
func parseIPTablesSave(raw string) map[string][]string {
	tables := map[string][]string{}
	table := ""
	sc := bufio.NewScanner(strings.NewReader(raw))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "" || strings.HasPrefix(l, "#") || l == "COMMIT":
		case strings.HasPrefix(l, "*"):
			table = l[1:]
			tables[table] = nil
		case strings.HasPrefix(l, ":"):
			f := strings.Fields(l[1:])
			if len(f) >= 2 {
				tables[table] = append(tables[table], f[0]+" "+f[1])
			}
		default:
			tables[table] = append(tables[table], l)
		}
	}
	return tables
}

func trivialTable(lines []string) bool {
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) != 2 || f[1] != "ACCEPT" || strings.HasPrefix(l, "-") {
			return false
		}
	}
	return true
}

func linkNames() ([]string, error) {
	out, err := exec.Command("ip", "-o", "link", "show").Output()
	if err != nil {
		return nil, fmt.Errorf("ip link: %w", err)
	}
	var names []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimSuffix(f[1], ":"), "@")
		names = append(names, name)
	}
	sort.Strings(names)
	return names, nil
}

// mountPoints lists the mount points at or below any of prefixes, longest first.
func mountPoints(prefixes []string) ([]string, error) {
	data, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, fmt.Errorf("mountinfo: %w", err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) < 5 {
			continue
		}
		mp := unescapeMountinfo(f[4])
		for _, p := range prefixes {
			if mp == p || strings.HasPrefix(mp, p+"/") {
				out = append(out, mp)
				break
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if d := len(b) - len(a); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	return out, nil
}

// unescapeMountinfo undoes mountinfo's octal escapes (\040 for a space).
func unescapeMountinfo(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var n byte
			if _, err := fmt.Sscanf(s[i+1:i+4], "%3o", &n); err == nil {
				b.WriteByte(n)
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// cgroupRoot is where the v1 hierarchies are mounted.
const cgroupRoot = "/sys/fs/cgroup"

func topCgroups() []string {
	var out []string
	ctrls, _ := os.ReadDir(cgroupRoot)
	for _, c := range ctrls {
		if !c.IsDir() {
			continue
		}
		entries, _ := os.ReadDir(filepath.Join(cgroupRoot, c.Name()))
		for _, e := range entries {
			if e.IsDir() {
				out = append(out, c.Name()+"/"+e.Name())
			}
		}
	}
	sort.Strings(out)
	return out
}

func watchedEntries() []string {
	var out []string
	for _, d := range watchedDirs {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		if len(entries) == 0 {
			out = append(out, d)
		}
		for _, e := range entries {
			out = append(out, d+"/"+e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// Diff lists every difference from before to after, one line each ("sysctl x: a -> b",
// "iptables filter: + rule", "link + kn-cni0" ...). Empty means the host is as it was.
func Diff(before, after *Snapshot) []string {
	var d []string
	for k, v := range before.Sysctls {
		if w, ok := after.Sysctls[k]; ok && w != v {
			d = append(d, fmt.Sprintf("sysctl %s: %q -> %q", k, v, w))
		}
	}
	for _, k := range unionKeys(before.IPTables, after.IPTables) {
		d = append(d, setDiff(k, before.IPTables[k], after.IPTables[k])...)
	}
	d = append(d, setDiff("link", before.Links, after.Links)...)
	d = append(d, setDiff("route", before.Routes, after.Routes)...)
	d = append(d, setDiff("mount", before.Mounts, after.Mounts)...)
	d = append(d, setDiff("cgroup", before.Cgroups, after.Cgroups)...)
	d = append(d, setDiff("path", before.Paths, after.Paths)...)
	sort.Strings(d)
	return d
}

// Summary counts what a snapshot covers, for the log.
func (s *Snapshot) Summary() string {
	rules := 0
	for _, l := range s.IPTables {
		rules += len(l)
	}
	return fmt.Sprintf("%d sysctls, %d iptables tables (%d chains and rules), %d links, %d routes, %d mounts, %d top-level cgroups, %d watched paths",
		len(s.Sysctls), len(s.IPTables), rules, len(s.Links), len(s.Routes), len(s.Mounts), len(s.Cgroups), len(s.Paths))
}

func unionKeys(a, b map[string][]string) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func setDiff(what string, before, after []string) []string {
	var d []string
	for _, x := range before {
		if !slices.Contains(after, x) {
			d = append(d, what+" - "+x)
		}
	}
	for _, x := range after {
		if !slices.Contains(before, x) {
			d = append(d, what+" + "+x)
		}
	}
	return d
}

// save writes the snapshot to file; loadSnapshot reads it back.
func (s *Snapshot) save(file string) error {
	data, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

func loadSnapshot(file string) (*Snapshot, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{}
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(s); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return s, nil
}
