package localstack

import (
	"os"
	"testing"
)

func TestReadMemoryOfThisProcess(t *testing.T) {
	m, err := ReadMemory(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if m.RSS <= 0 || m.Peak < m.RSS {
		t.Fatalf("memory %+v: want RSS > 0 and a peak at least as large", m)
	}
	if _, err := ReadMemory(-1); err == nil {
		t.Fatal("read the memory of pid -1")
	}
}
