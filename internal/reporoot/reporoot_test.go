package reporoot

import (
	"os"
	"path/filepath"
	"testing"
)

func TestFindFrom(t *testing.T) {
	root := t.TempDir()
	write := func(path, content string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "go.mod"), "// the repository\nmodule "+Module+"\n\ngo 1.26\n")
	// A nested module (as hack/tools) is not the root.
	write(filepath.Join(root, "hack", "tools", "go.mod"), "module "+Module+"/hack/tools\n")
	if err := os.MkdirAll(filepath.Join(root, "hack", "tools", "cmd"), 0o755); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	write(filepath.Join(other, "go.mod"), "module example.com/other\n")

	for _, tc := range []struct {
		from    string
		want    string
		wantErr bool
	}{
		{from: root, want: root},
		{from: filepath.Join(root, "hack", "tools", "cmd"), want: root},
		{from: other, wantErr: true},
	} {
		got, err := FindFrom(tc.from)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("FindFrom(%s) = %q, %v; want %q (error %v)", tc.from, got, err, tc.want, tc.wantErr)
		}
	}
}
