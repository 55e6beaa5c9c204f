package localstack

import (
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
)

// A taken port names its holder, as the "port N needed by X is already in use by ..."
// error shows it; a free one has none.
func TestPortHolder(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	holder := PortHolder(port)
	if !strings.Contains(holder, fmt.Sprintf("pid=%d", os.Getpid())) {
		t.Errorf("PortHolder(%d) = %q, want this process (pid %d)", port, holder, os.Getpid())
	}
	l.Close()
	if h := PortHolder(port); h != "" {
		t.Errorf("PortHolder(%d) after close = %q, want empty", port, h)
	}
}
