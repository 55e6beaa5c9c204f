package kubectlkruise

import (
	"testing"
	"time"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// scaledown deletes exactly the named pod and lowers replicas; an unknown pod fails
// (kruise-apiserver's admission refuses a name of no pod in an update that lowers
// replicas, for every client) and nothing is written.
func TestScaleDownDeletesNamedPods(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	createCloneSet(t, ns, newCloneSet("sd", 3, "nginx:1.25"))
	cs := waitRolledOut(t, ns, "sd", "nginx:1.25", 3)
	pods := podsOf(t, ns, cs)
	victim := pods[1].Name
	keep := map[string]bool{pods[0].Name: true, pods[2].Name: true}

	_, stderr, err := kk(t, "scaledown", "clone/sd", "-n", ns, "--pods="+victim+",no-such-pod")
	if err == nil {
		t.Fatal("scaledown with an unknown pod succeeded")
	}
	mustContain(t, "scaledown stderr", stderr, "no-such-pod")
	if after := getCloneSet(t, ns, "sd"); after.ResourceVersion != cs.ResourceVersion {
		t.Fatal("a refused scaledown wrote the CloneSet")
	}

	// The rule is the server's: plain kubectl (any client) is judged the same way. A
	// name of no pod with replicas as stored (a GitOps tool applying its manifest again
	// after the controller dropped the names of pods it deleted) is admitted, with a
	// warning naming the field; the controller drops the name.
	_, stderr, err = c.Kubectl(t, "patch", "clone", "sd", "-n", ns, "--type=merge",
		"-p", `{"spec":{"scaleStrategy":{"podsToDelete":["no-such-pod"]}}}`)
	if err != nil {
		t.Fatalf("kubectl patch naming no pod in podsToDelete, replicas unchanged: %v", err)
	}
	mustContain(t, "kubectl patch stderr", stderr, `Warning: spec.scaleStrategy.podsToDelete[0]: "no-such-pod": no such pod in the CloneSet's namespace`)

	out, _, err := kk(t, "scaledown", "clone/sd", "-n", ns, "--pods="+victim)
	if err != nil {
		t.Fatal(err)
	}
	mustContain(t, "scaledown", out, "cloneset.apps.kruise.io/sd scaled down")
	if r := *getCloneSet(t, ns, "sd").Spec.Replicas; r != 2 {
		t.Fatalf("replicas = %d, want 2", r)
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		left := podsOf(t, ns, cs)
		if len(left) != 2 {
			return false, nil
		}
		for _, p := range left {
			if !keep[p.Name] {
				return false, nil
			}
		}
		return true, nil
	})
}
