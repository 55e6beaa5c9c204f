package fakecri

import (
	"crypto/rand"
	"encoding/hex"
)

// newID returns a random 64-hex-digit ID, the form containerd gives sandboxes and
// containers (callers often shorten or prefix-match them).
func newID() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux
	return hex.EncodeToString(b[:])
}
