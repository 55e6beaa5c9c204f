package localstack

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// The guard stops a stack whose owner dies without doing it (a test timeout panic,
// SIGKILL, Ctrl-C): a copy of the owner's own executable, in its own session, waits for
// EOF on its stdin — which comes only when the owner exits — then copies the logs, stops
// every component and removes LocalDir. The copy becomes a guard in this package's init,
// before the program's main (or TestMain) runs, so every program importing the package
// can start guards without doing anything else.

const (
	envGuardDir  = "LOCALSTACK_GUARD_DIR"
	envGuardLogs = "LOCALSTACK_GUARD_LOGS"
)

// Guard is the owner's end of a guard: Release when the stack is stopped.
type Guard struct{ w io.WriteCloser }

// StartGuard starts the guard of s; logDest, when set, receives a copy of the logs.
func StartGuard(s *Stack, logDest string) (*Guard, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("guard: %w", err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envGuardDir+"="+s.LocalDir, envGuardLogs+"="+logDest)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("guard: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the guard: %w", err)
	}
	go func() { _ = cmd.Wait() }()
	return &Guard{w: w}, nil
}

// Release lets the guard exit (it does nothing once LocalDir is gone).
func (g *Guard) Release() {
	if g != nil && g.w != nil {
		_ = g.w.Close()
	}
}

func init() { runGuard() }

// runGuard returns at once unless this process was started as a guard; a guard does its
// job and exits.
func runGuard() {
	dir := os.Getenv(envGuardDir)
	if dir == "" {
		return
	}
	_, _ = io.Copy(io.Discard, os.Stdin)
	if _, err := os.Stat(dir); err != nil {
		os.Exit(0)
	}
	logs := os.Getenv(envGuardLogs)
	out := io.Discard
	if logs != "" {
		_ = os.MkdirAll(logs, 0o755)
		_ = copyDir(filepath.Join(dir, "logs"), logs)
		if f, err := os.OpenFile(filepath.Join(logs, "local-up.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
			defer f.Close()
			out = f
		}
	}
	s := New(Options{LocalDir: dir, Out: out})
	_ = s.Down(context.Background(), false)
	_ = os.RemoveAll(dir)
	os.Exit(0)
}

// copyDir copies the regular files of a tree.
func copyDir(src, dst string) error {
	return filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
}

// CopyLogs copies LocalDir/logs to dest.
func (s *Stack) CopyLogs(dest string) error {
	_ = os.RemoveAll(dest)
	return copyDir(filepath.Join(s.LocalDir, "logs"), dest)
}
