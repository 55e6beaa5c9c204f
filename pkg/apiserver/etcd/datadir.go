package etcd

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// databasePath is the member's bbolt database in dataDir, the file etcd locks while it
// runs (etcd's config.ServerConfig.BackendPath).
func databasePath(dataDir string) string {
	return filepath.Join(dataDir, "member", "snap", "db")
}

// checkDataDirFree fails when another process holds the lock on the member's database,
// naming the file: another kruise-apiserver (or etcd) runs on the data dir. The probe
// takes and drops the lock; a holder that is exiting and lets go just after makes etcd
// wait that long, not for ever.
func checkDataDirFree(dataDir string) error {
	path := databasePath(dataDir)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // a new member
	}
	if err != nil {
		return fmt.Errorf("opening the embedded etcd database: %w", err)
	}
	defer f.Close()
	// flock locks conflict between open files, even in one process, as bbolt's does.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("embedded etcd data dir %s is in use by another process (it holds the lock on %s)", dataDir, path)
		}
		return fmt.Errorf("locking %s: %w", path, err)
	}
	// Closing the file drops the lock.
	return nil
}
