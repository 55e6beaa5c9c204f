package localstack

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// pidFile is LOCAL_DIR/pids/<component>.pid.
func (s *Stack) pidFile(name string) string { return filepath.Join(s.LocalDir, "pids", name+".pid") }

// LogPath is the component's log, LOCAL_DIR/logs/<component>.log.
func (s *Stack) LogPath(name string) string { return filepath.Join(s.LocalDir, "logs", name+".log") }

// PID returns the pid of a running component started from this LOCAL_DIR. A pid whose
// process runs another program (a reused pid) does not count.
func (s *Stack) PID(name string) (int, bool) {
	b, err := os.ReadFile(s.pidFile(name))
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0, false
	}
	if !runs(pid, binaryOf(name)) {
		return 0, false
	}
	return pid, true
}

// runs reports whether pid is alive (not a zombie) and its argv[0] is bin.
func runs(pid int, bin string) bool {
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(cmdline) == 0 { // gone, or a zombie
		return false
	}
	argv0, _, _ := strings.Cut(string(cmdline), "\x00")
	return filepath.Base(argv0) == bin
}

// startProcess starts a component in its own session with its log appended, records its
// pid, and reaps it when it exits (alive tells whether it still runs).
func (s *Stack) startProcess(name, bin string, env []string, args ...string) error {
	if st, err := os.Stat(bin); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return fmt.Errorf("%s not found; run 'make tools' (and 'make build' for kruise binaries)", bin)
	}
	if err := s.checkPortsFree(name); err != nil {
		return err
	}
	for _, d := range []string{"logs", "pids"} {
		if err := os.MkdirAll(filepath.Join(s.LocalDir, d), 0o755); err != nil {
			return err
		}
	}
	logFile, err := os.OpenFile(s.LogPath(name), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("%s: opening its log: %w", name, err)
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "===== %s starting %s\n===== %s %s\n", time.Now().UTC().Format(time.RFC3339), name, bin, strings.Join(args, " "))
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: starting %s: %w", name, bin, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	s.mu.Lock()
	s.started[name] = done
	s.mu.Unlock()
	if err := os.WriteFile(s.pidFile(name), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o644); err != nil {
		return err
	}
	s.logf("started %s (pid %d)", name, cmd.Process.Pid)
	return nil
}

// alive reports whether a component still runs; for one this Stack started it asks the
// process itself, otherwise the pid file.
func (s *Stack) alive(name string) bool {
	s.mu.Lock()
	done, ok := s.started[name]
	s.mu.Unlock()
	if ok {
		select {
		case <-done:
			return false
		default:
			return true
		}
	}
	_, ok = s.PID(name)
	return ok
}

// checkPortsFree fails naming the port, the component and the holder of a taken port.
func (s *Stack) checkPortsFree(name string) error {
	for _, p := range s.Ports.componentPorts(name) {
		if holder := PortHolder(p); holder != "" {
			return fmt.Errorf("port %d needed by %s is already in use by %s. Stop that process, or choose other ports with PORT_BASE=<n> (see hack/LOCAL.md)", p, name, holder)
		}
	}
	return nil
}

// PortHolder describes who listens on the TCP port (any address), or returns "" when the
// port is free: `"name",pid=N` from /proc, or a note when the process is not visible.
func PortHolder(port int) string {
	inodes := listeningInodes(port)
	if len(inodes) == 0 {
		// not in /proc/net (another network namespace?): try to connect
		c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), 300*time.Millisecond)
		if err != nil {
			return ""
		}
		c.Close()
		return "an unknown process"
	}
	if who := socketOwners(inodes); who != "" {
		return who
	}
	return "a process this user cannot see"
}

// listeningInodes returns the socket inodes listening on port, from /proc/net/tcp{,6}.
func listeningInodes(port int) map[string]bool {
	out := map[string]bool{}
	hexPort := fmt.Sprintf(":%04X", port)
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		file, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(file)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			// sl local_address rem_address st ... inode(9)
			if len(fields) < 10 || fields[3] != "0A" || !strings.HasSuffix(fields[1], hexPort) {
				continue
			}
			out[fields[9]] = true
		}
		file.Close()
	}
	return out
}

// socketOwners finds the processes holding any of the socket inodes.
func socketOwners(inodes map[string]bool) string {
	procs, _ := os.ReadDir("/proc")
	var who []string
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
			if err != nil || !strings.HasPrefix(link, "socket:[") {
				continue
			}
			if inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] {
				comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
				who = append(who, fmt.Sprintf("%q pid=%d", strings.TrimSpace(string(comm)), pid))
				break
			}
		}
	}
	return strings.Join(who, ", ")
}

// Stop sends SIGTERM to a component, waits for it to exit (SIGKILL after StopTimeout)
// and removes its pid file. Stopping a component that does not run is not an error.
func (s *Stack) Stop(ctx context.Context, name string) error {
	pid, ok := s.PID(name)
	if !ok {
		if _, err := os.Stat(s.pidFile(name)); err != nil {
			s.downf("%s: not started here", name)
		} else {
			s.downf("%s: not running", name)
		}
		_ = os.Remove(s.pidFile(name))
		return nil
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	if !s.waitGone(ctx, name, pid, s.StopTimeout) {
		s.downf("%s: still running %s after SIGTERM, sending SIGKILL", name, s.StopTimeout)
		_ = syscall.Kill(pid, syscall.SIGKILL)
		if !s.waitGone(ctx, name, pid, 10*time.Second) {
			return fmt.Errorf("%s (pid %d) did not exit after SIGKILL", name, pid)
		}
	}
	if err := s.waitPortsReleased(name, 10*time.Second); err != nil {
		s.downf("%s: stopped, but %v", name, err)
	}
	_ = os.Remove(s.pidFile(name))
	s.downf("%s: stopped (pid %d)", name, pid)
	return nil
}

// waitPortsReleased waits until no one listens on the component's ports. A process that
// has left /proc/<pid> can still hold its listening sockets for a moment while the
// kernel closes its files; a start in that moment found its own port "in use by a
// process this user cannot see" (seen under load in the aggregation tests).
func (s *Stack) waitPortsReleased(name string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := s.checkPortsFree(name)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Kill sends SIGKILL to a component, as a crash or an OOM kill would, and waits until it
// is gone. Start brings it back.
func (s *Stack) Kill(name string) error {
	pid, ok := s.PID(name)
	if !ok {
		return fmt.Errorf("kill %s: not running", name)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		return fmt.Errorf("kill %s (pid %d): %w", name, pid, err)
	}
	if !s.waitGone(context.Background(), name, pid, 30*time.Second) {
		return fmt.Errorf("kill %s: pid %d still there 30s after SIGKILL", name, pid)
	}
	if err := s.waitPortsReleased(name, 10*time.Second); err != nil {
		return fmt.Errorf("kill %s: %w", name, err)
	}
	if err := os.Remove(s.pidFile(name)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

func (s *Stack) waitGone(ctx context.Context, name string, pid int, timeout time.Duration) bool {
	deadline := time.Now().Add(timeout)
	for runs(pid, binaryOf(name)) {
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(100 * time.Millisecond)
	}
	return true
}
