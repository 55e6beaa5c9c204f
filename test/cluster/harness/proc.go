package harness

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Proc is one long-running program the harness started.
type Proc struct {
	Name string
	Bin  string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
	// pidFile records the pid for Recover, which ends what a killed run left running.
	pidFile string
}

// startProc starts bin with its output appended to LogDir/<name>.log, in a process group
// of its own (a Ctrl-C in the terminal reaches the harness, which stops everything in
// order, not every program at once), killed if the harness dies.
func (c *Cluster) startProc(name, bin string, args ...string) (*Proc, error) {
	if st, err := os.Stat(bin); err != nil || st.Mode()&0o111 == 0 {
		return nil, fmt.Errorf("%s: %s is not an executable: %v", name, bin, err)
	}
	logFile, err := os.OpenFile(c.Layout.Log(name), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: opening its log: %w", name, err)
	}
	defer logFile.Close()
	fmt.Fprintf(logFile, "===== %s %s %s\n", time.Now().UTC().Format(time.RFC3339), bin, strings.Join(args, " "))
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: starting %s: %w", name, bin, err)
	}
	p := &Proc{Name: name, Bin: bin, cmd: cmd, done: make(chan struct{}),
		pidFile: c.Layout.StatePath("pids", name+".pid")}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	if err := os.MkdirAll(filepath.Dir(p.pidFile), 0o755); err == nil {
		_ = os.WriteFile(p.pidFile, []byte(strconv.Itoa(cmd.Process.Pid)), 0o644)
	}
	c.procs[name] = p
	return p, nil
}

// Exited reports whether the process has ended, and how.
func (p *Proc) Exited() (bool, error) {
	select {
	case <-p.done:
		if p.err == nil {
			return true, errors.New("exit status 0")
		}
		return true, p.err
	default:
		return false, nil
	}
}

// Stop sends SIGTERM and waits up to grace, then SIGKILL. It reports how long the process
// took to go.
func (p *Proc) Stop(grace time.Duration) time.Duration {
	begin := time.Now()
	select {
	case <-p.done:
	default:
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(grace):
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	}
	_ = os.Remove(p.pidFile)
	return time.Since(begin)
}

// killRecorded ends the programs a previous run recorded in StateDir/pids and did not
// stop (the run was killed): only a pid whose executable is the recorded program's.
func killRecorded(l Layout, logf func(string, ...any)) {
	files, _ := filepath.Glob(filepath.Join(l.State, "pids", "*.pid"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".pid")
		b, _ := os.ReadFile(f)
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err == nil && pid > 1 && execIs(pid, name) {
			logf("recover: killing %s (pid %d) left running by an earlier run", name, pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
			waitGone(pid, 10*time.Second)
		}
		_ = os.Remove(f)
	}
}

// execIs reports whether pid runs the program named name (its argv[0]'s base name).
func execIs(pid int, name string) bool {
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(cmdline) == 0 {
		return false
	}
	argv0, _, _ := strings.Cut(string(cmdline), "\x00")
	return filepath.Base(argv0) == name
}

func waitGone(pid int, d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d/cmdline", pid)); err != nil {
			return
		}
		if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); len(b) == 0 {
			return // a zombie: its parent (not us) reaps it
		}
		time.Sleep(50 * time.Millisecond)
	}
}
