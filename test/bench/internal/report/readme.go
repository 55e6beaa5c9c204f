package report

import (
	"fmt"
	"os"
	"strings"
)

// README section markers: `make bench` replaces what lies between them.
const (
	readmeBegin = "<!-- bench:begin (written by make bench) -->"
	readmeEnd   = "<!-- bench:end -->"
)

// UpdateREADME puts the latest results between the markers of the README at path.
func UpdateREADME(path string, r *Results) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	s := string(b)
	i, j := strings.Index(s, readmeBegin), strings.Index(s, readmeEnd)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %q ... %q section", path, readmeBegin, readmeEnd)
	}
	body := fmt.Sprintf("%s\nLatest: [`test/bench/results/%s.json`](test/bench/results/%s.json), full report [`%s.md`](test/bench/results/%s.md).\n\n%s",
		readmeBegin, r.Date, r.Date, r.Date, r.Date, Markdown(r, "test/bench/results", true))
	out := s[:i] + body + s[j:]
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
