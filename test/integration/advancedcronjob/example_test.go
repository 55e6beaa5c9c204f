package advancedcronjob

import (
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

var runName = regexp.MustCompile(`^acj-test-(\d+)$`)

// The documented manifest, applied unchanged: every minute a BroadcastJob named
// acj-test-<unix time of the start> is created, controlled by the AdvancedCronJob, and
// `kubectl get acj` prints SCHEDULE TYPE LASTSCHEDULETIME AGE with the run's type.
func TestExampleStartsABroadcastJobEveryMinute(t *testing.T) {
	t.Parallel()
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	if out, _, err := c.Kubectl(t, "apply", "-n", ns, "-f", filepath.Join(examplesDir(t), "advancedcronjob.yaml")); err != nil ||
		!strings.Contains(out, "advancedcronjob.apps.kruise.io/acj-test") {
		t.Fatalf("kubectl apply -f advancedcronjob.yaml: %v\n%s", err, out)
	}
	acj, err := getACJ(t, ns, "acj-test")
	if err != nil {
		t.Fatal(err)
	}

	// Two starts: up to a minute to the first, one more to the second. The runs expire
	// 30 s after they complete (ttlSecondsAfterFinished), so collect every name seen.
	seen := map[string]bool{}
	framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
		runs, err := broadcastJobsOf(t, acj)
		if err != nil {
			return false, err
		}
		for name := range runs {
			seen[name] = true
		}
		return result(len(seen) >= 2, "runs seen: %v", seen)
	})
	var starts []int64
	for name := range seen {
		m := runName.FindStringSubmatch(name)
		if m == nil {
			t.Fatalf("run %q is not named acj-test-<unix time>", name)
		}
		unix, _ := strconv.ParseInt(m[1], 10, 64)
		if unix%60 != 0 {
			t.Errorf("run %s: %d is not the Unix time of a whole minute", name, unix)
		}
		starts = append(starts, unix)
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i] < starts[j] })
	if starts[1]-starts[0] != 60 {
		t.Errorf("starts %v are not a minute apart", starts)
	}

	out, _, err := c.Kubectl(t, "get", "acj", "-n", ns, "acj-test")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if header := strings.Join(strings.Fields(lines[0]), " "); header != "NAME SCHEDULE TYPE LASTSCHEDULETIME AGE" {
		t.Errorf("kubectl get acj header %q", header)
	}
	if row := strings.Fields(lines[len(lines)-1]); len(row) != 9 || row[0] != "acj-test" || row[6] != "BroadcastJob" || row[7] == "<none>" {
		// NAME, the five fields of "*/1 * * * *", TYPE, LASTSCHEDULETIME, AGE
		t.Errorf("kubectl get acj row %q, want acj-test, the schedule, BroadcastJob and a last schedule time", lines[len(lines)-1])
	}
}
