package harness

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// restoreHost undoes what a cluster changed on the host, compared with before: it runs
// after every program of the cluster has stopped (or was killed), in an order where each
// step can succeed: processes, mounts, network, cgroups, files, sysctls. Each step logs
// what it removed; errors are collected, not fatal, so that one failure does not leave
// the rest behind.
func restoreHost(l Layout, before *Snapshot, logf func(string, ...any)) []error {
	var errs []error
	note := func(err error) {
		if err != nil {
			errs = append(errs, err)
			logf("restore: %v", err)
		}
	}
	killShims(l, logf)
	note(killCgroupTree("kubepods", logf))
	note(unmountNew(before, slices.Concat(watchedMountPrefixes, []string{StateDir, RunDir}), logf))
	note(removeIPTables(before, logf))
	note(deleteLinks(before, logf))
	note(removeCgroupTree("kubepods", logf))
	note(removeNewPaths(before, logf))
	for _, d := range []string{RunDir, StateDir + "/containerd", StateDir + "/kubelet"} {
		if err := os.RemoveAll(d); err != nil {
			note(fmt.Errorf("removing %s: %w", d, err))
		}
	}
	note(restoreSysctls(before, logf))
	return errs
}

// killShims ends the containerd shims serving our containerd (their -address names our
// socket) that outlived it.
func killShims(l Layout, logf func(string, ...any)) {
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", p.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(string(cmdline), "\x00")
		if !strings.HasPrefix(filepath.Base(args[0]), "containerd-shim") {
			continue
		}
		if slices.Contains(args, l.ContainerdSocket()) {
			logf("restore: killing shim %d left by our containerd", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
			waitGone(pid, 5*time.Second)
		}
	}
}

// cgroupDirs lists name and its descendants in every v1 hierarchy, deepest first.
func cgroupDirs(name string) []string {
	var dirs []string
	ctrls, _ := os.ReadDir(cgroupRoot)
	for _, c := range ctrls {
		top := filepath.Join(cgroupRoot, c.Name(), name)
		if st, err := os.Stat(top); err != nil || !st.IsDir() {
			continue
		}
		_ = filepath.WalkDir(top, func(path string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				dirs = append(dirs, path)
			}
			return nil
		})
	}
	sort.Slice(dirs, func(i, j int) bool { return strings.Count(dirs[i], "/") > strings.Count(dirs[j], "/") })
	return dirs
}

// killCgroupTree kills every process left in the cgroup tree (containers whose shim was
// killed keep running otherwise), so that the tree can be removed.
func killCgroupTree(name string, logf func(string, ...any)) error {
	deadline := time.Now().Add(15 * time.Second)
	for {
		var pids []int
		for _, d := range cgroupDirs(name) {
			b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
			for _, f := range strings.Fields(string(b)) {
				if pid, err := strconv.Atoi(f); err == nil && !slices.Contains(pids, pid) {
					pids = append(pids, pid)
				}
			}
		}
		if len(pids) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("processes %v still in the %s cgroups", pids, name)
		}
		logf("restore: killing %d processes left in the %s cgroups: %v", len(pids), name, pids)
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// removeCgroupTree removes the (empty) cgroup tree kubelet made, deepest first.
func removeCgroupTree(name string, logf func(string, ...any)) error {
	dirs := cgroupDirs(name)
	var failed []string
	for _, d := range dirs {
		if err := os.Remove(d); err != nil {
			// A cgroup emptied a moment ago can still be busy for a few milliseconds.
			time.Sleep(100 * time.Millisecond)
			if err := os.Remove(d); err != nil {
				failed = append(failed, d)
			}
		}
	}
	if len(dirs) > 0 {
		logf("restore: removed %d cgroup directories of %s", len(dirs)-len(failed), name)
	}
	if len(failed) > 0 {
		return fmt.Errorf("cannot remove cgroups %v", failed)
	}
	return nil
}

// unmountNew detaches the mounts under prefixes that were not there before, deepest
// first.
func unmountNew(before *Snapshot, prefixes []string, logf func(string, ...any)) error {
	now, err := mountPoints(prefixes)
	if err != nil {
		return err
	}
	var failed []string
	n := 0
	for _, m := range now {
		if slices.Contains(before.Mounts, m) {
			continue
		}
		if err := syscall.Unmount(m, syscall.MNT_DETACH); err != nil {
			failed = append(failed, fmt.Sprintf("%s (%v)", m, err))
			continue
		}
		n++
	}
	if n > 0 {
		logf("restore: unmounted %d mounts", n)
	}
	if len(failed) > 0 {
		return fmt.Errorf("cannot unmount %v", failed)
	}
	return nil
}

// ownedChain: the chains kubelet, kube-proxy and the CNI plugins create.
func ownedChain(name string) bool {
	return strings.HasPrefix(name, "KUBE-") || strings.HasPrefix(name, "CNI-")
}

// removeIPTables removes the KUBE-* and CNI-* chains that were not there before, and the
// new rules jumping to them from other chains, with one iptables-restore --noflush per
// family (atomic per table).
func removeIPTables(before *Snapshot, logf func(string, ...any)) error {
	for _, fam := range []string{"iptables", "ip6tables"} {
		if _, err := exec.LookPath(fam + "-restore"); err != nil {
			continue
		}
		raw, err := exec.Command(fam + "-save").Output()
		if err != nil {
			return fmt.Errorf("%s-save: %w", fam, err)
		}
		script, removed := iptablesRemovals(fam, before.IPTables, parseIPTablesSave(string(raw)))
		if removed == 0 {
			continue
		}
		cmd := exec.Command(fam+"-restore", "--noflush", "-w", "5")
		cmd.Stdin = strings.NewReader(script)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s-restore: %w: %s", fam, err, bytes.TrimSpace(out))
		}
		logf("restore: %s: removed %d KUBE-*/CNI-* chains and rules jumping to them", fam, removed)
	}
	return nil
}

// iptablesRemovals is the iptables-restore --noflush input that takes the tables of one
// family (now, as parseIPTablesSave returns them) back to before ("<family> <table>" ->
// lines, as in Snapshot): new rules of other chains that jump to a KUBE-*/CNI-* chain are
// deleted, then new KUBE-*/CNI-* chains are flushed and deleted (flushing all of them
// first, since they jump to one another). It also returns how many rules and chains it
// removes. Anything else new is left for Diff to report.
func iptablesRemovals(fam string, before map[string][]string, now map[string][]string) (string, int) {
	var b strings.Builder
	removed := 0
	tables := slices.Sorted(maps.Keys(now))
	for _, table := range tables {
		old := before[fam+" "+table]
		var dels, chains []string
		for _, l := range now[table] {
			if slices.Contains(old, l) {
				continue
			}
			f := strings.Fields(l)
			if !strings.HasPrefix(l, "-A ") {
				if ownedChain(f[0]) {
					chains = append(chains, f[0])
				}
				continue
			}
			if ownedChain(f[1]) {
				continue // goes with its chain
			}
			if ownedChain(jumpTarget(f)) {
				dels = append(dels, "-D "+strings.TrimPrefix(l, "-A "))
			}
		}
		if len(dels)+len(chains) == 0 {
			continue
		}
		fmt.Fprintf(&b, "*%s\n", table)
		for _, d := range dels {
			fmt.Fprintln(&b, d)
		}
		for _, c := range chains {
			fmt.Fprintf(&b, "-F %s\n", c)
		}
		for _, c := range chains {
			fmt.Fprintf(&b, "-X %s\n", c)
		}
		fmt.Fprintln(&b, "COMMIT")
		removed += len(dels) + len(chains)
	}
	return b.String(), removed
}

func jumpTarget(f []string) string {
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "-j" || f[i] == "-g" {
			return f[i+1]
		}
	}
	return ""
}

// deleteLinks deletes the new interfaces the node made: the node device, the CNI bridge
// and pod veths whose other end died with the pod's namespace (normally gone with it).
func deleteLinks(before *Snapshot, logf func(string, ...any)) error {
	now, err := linkNames()
	if err != nil {
		return err
	}
	var errs []string
	for _, n := range now {
		if slices.Contains(before.Links, n) {
			continue
		}
		if n != PodBridge && n != NodeDevice && !strings.HasPrefix(n, "veth") {
			continue
		}
		if out, err := exec.Command("ip", "link", "del", n).CombinedOutput(); err != nil {
			errs = append(errs, fmt.Sprintf("%s: %s", n, bytes.TrimSpace(out)))
			continue
		}
		logf("restore: deleted link %s", n)
	}
	if len(errs) > 0 {
		return fmt.Errorf("deleting links: %s", strings.Join(errs, "; "))
	}
	return nil
}

// removeNewPaths removes the entries of the watched system directories that were not
// there before, and such a directory itself when it did not exist before and is empty
// now. A socket some process still listens on is kept: another containerd (someone
// else's test) may own it.
func removeNewPaths(before *Snapshot, logf func(string, ...any)) error {
	listening := listeningUnixSockets()
	var errs []string
	n := 0
	for _, p := range watchedEntries() {
		if slices.Contains(before.Paths, p) || listening[p] {
			continue
		}
		if slices.Contains(watchedDirs, p) {
			continue // an empty watched directory: handled below
		}
		if err := os.RemoveAll(p); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		n++
	}
	// Directories that did not exist: deepest first, only when empty.
	dirs := slices.Clone(watchedDirs)
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, d := range dirs {
		existed := slices.ContainsFunc(before.Paths, func(p string) bool { return p == d || strings.HasPrefix(p, d+"/") })
		if existed {
			continue
		}
		if err := os.Remove(d); err == nil {
			n++
		}
	}
	if n > 0 {
		logf("restore: removed %d files and directories from the system directories", n)
	}
	if len(errs) > 0 {
		return fmt.Errorf("removing paths: %s", strings.Join(errs, "; "))
	}
	return nil
}

// listeningUnixSockets are the paths of bound unix sockets (/proc/net/unix).
func listeningUnixSockets() map[string]bool {
	out := map[string]bool{}
	data, err := os.ReadFile("/proc/net/unix")
	if err != nil {
		return out
	}
	for _, l := range strings.Split(string(data), "\n")[1:] {
		f := strings.Fields(l)
		if len(f) >= 8 && strings.HasPrefix(f[7], "/") {
			out[f[7]] = true
		}
	}
	return out
}

// restoreSysctls writes back every value that changed. Per-interface values of an
// interface that is gone are skipped.
func restoreSysctls(before *Snapshot, logf func(string, ...any)) error {
	now, err := readSysctls()
	if err != nil {
		return err
	}
	var errs []string
	var restored []string
	for k, v := range before.Sysctls {
		w, ok := now[k]
		if !ok || w == v {
			continue
		}
		if err := os.WriteFile(filepath.Join("/proc/sys", k), []byte(v), 0o644); err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", k, err))
			continue
		}
		restored = append(restored, fmt.Sprintf("%s=%s (was %s)", strings.ReplaceAll(k, "/", "."), v, w))
	}
	sort.Strings(restored)
	for _, r := range restored {
		logf("restore: sysctl %s", r)
	}
	if len(errs) > 0 {
		return fmt.Errorf("restoring sysctls: %s", strings.Join(errs, "; "))
	}
	return nil
}
