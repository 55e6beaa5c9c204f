package chaos

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func writeReport(path string, started time.Time, pods int, outage time.Duration, results []result) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Chaos suite — %s\n\n", started.Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(&b, "`make test-chaos` (test/integration/chaos) on the HA topology of `make up HA=1`: a 3-member etcd "+
		"cluster (TLS, --unsafe-no-fsync), 2 kruise-apiserver replicas on it behind HAProxy (/readyz checks every 500 ms), "+
		"2 kruise-controller replicas with leader election, real kube-apiserver, kwok nodes; %d CPUs shared with other work.\n\n", runtime.NumCPU())
	fmt.Fprintf(&b, "Each case: a CloneSet of %d pods starts a recreate rollout (image change); while it is in flight, under a "+
		"steady write load (one CloneSet create every 100 ms through kube-apiserver and the load balancer, 5 s client timeout), "+
		"the component is killed with SIGKILL and started again %s later (except the etcd member killed for good). "+
		"Then the load runs until writes have succeeded again for 3 s, and the rollout must finish with exactly %d pods, all updated.\n\n", pods, outage, pods)
	b.WriteString("- **acked then missing**: creates that returned success and are not in the final list (must be 0).\n")
	b.WriteString("- **retried**: answers with Retry-After (503/504 from an etcd leader election, 429) the load's client got from the kill on; client-go waits and sends the call again, so these are not failures unless the call then fails.\n")
	b.WriteString("- **failed**: write calls that failed from the kill on (while the component was down and while it came back), by what they ended with: an API status (a 500 is a bug: a transient fault must answer 503/504 with Retry-After), the 5 s client timeout, or no answer.\n")
	b.WriteString("- **failed yet stored**: of those, creates that were applied although the client got an error (a lost answer, e.g. the 5 s timeout); a client must not assume either outcome.\n")
	b.WriteString("- **recovered after**: from the kill to the first successful write after the last failed one (0: none failed).\n\n")
	b.WriteString("| fault | killed | writes acked | acked then missing | retried | failed | failed yet stored | recovered after | rollout pods (updated) | rollout took |\n")
	b.WriteString("|---|---|---:|---:|---:|---|---:|---:|---|---:|\n")
	for _, r := range results {
		rec := r.recovered.Round(10 * time.Millisecond).String()
		if r.recovered < 0 {
			rec = "never"
		}
		roll := fmt.Sprintf("%d (%d)", r.rolloutPods, r.rolloutUpdated)
		if !r.inFlight {
			roll += ", finished before the fault"
		}
		took := r.rolloutTook.Round(time.Second).String()
		if !r.rolloutOK {
			roll += " — NOT FINISHED"
			took = "-"
		}
		missing := fmt.Sprint(r.missing)
		if r.missing < 0 {
			missing = "not checked"
		}
		fault := r.fault
		if r.err != "" {
			fault += " (" + r.err + ")"
		}
		failed := fmt.Sprint(r.failed)
		if r.causes != "" {
			failed += " (" + r.causes + ")"
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %d | %s | %d | %s | %s | %s |\n", fault, r.killed, r.acked, missing, r.retried, failed, r.failedStored, rec, roll, took)
	}
	if len(results) < len(faults) {
		fmt.Fprintf(&b, "\nOnly %d of %d cases ran (a case failed before it produced a row; see the test log).\n", len(results), len(faults))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
