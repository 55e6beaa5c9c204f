package persistentpodstate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// examples/persistentpodstate.yaml applied unchanged (the documented
// PersistentPodState — required hostname, preferred zone — and its Advanced
// StatefulSet) reaches the documented state: status.podStates maps each of the three
// pods to its node and that node's hostname and zone; a pod deleted comes back to the
// same node, required by hostname and preferred by zone.
func TestDocumentedExample(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	data, err := os.ReadFile(filepath.Join(c.Root, "examples", "persistentpodstate.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if out, err := c.KubectlStdin(t, string(data), "apply", "-n", ns, "-f", "-"); err != nil {
		t.Fatalf("kubectl apply: %v: %s", err, out)
	}
	t.Cleanup(func() {
		_, _, _ = c.Kubectl(t, "delete", "-n", ns, "statefulsets.apps.kruise.io", "echoserver", "--wait=true")
	})
	pps := waitRecorded(t, ns, "echoserver", "echoserver-0", "echoserver-1", "echoserver-2")
	for name, st := range pps.Status.PodStates {
		node, err := c.Client.CoreV1().Nodes().Get(ctx, st.NodeName, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("%s's node: %v", name, err)
		}
		if st.NodeTopologyLabels["kubernetes.io/hostname"] != node.Labels["kubernetes.io/hostname"] ||
			st.NodeTopologyLabels[zoneKey] != node.Labels[zoneKey] || len(st.NodeTopologyLabels) != 2 {
			t.Errorf("%s recorded as %+v; node labels %v", name, st, node.Labels)
		}
	}
	if pps.Status.ObservedGeneration != pps.Generation {
		t.Errorf("observedGeneration %d, generation %d", pps.Status.ObservedGeneration, pps.Generation)
	}

	recorded := pps.Status.PodStates["echoserver-1"]
	pod := recreate(t, ns, "echoserver-1")
	if got := requiredValue(pod, "kubernetes.io/hostname"); got != recorded.NodeName || pod.Spec.NodeName != recorded.NodeName {
		t.Errorf("recreated echoserver-1 requires hostname %q and runs on %s; recorded on %s", got, pod.Spec.NodeName, recorded.NodeName)
	}
	var pref []corev1.PreferredSchedulingTerm
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		pref = a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution
	}
	if len(pref) != 1 || pref[0].Weight != 100 || pref[0].Preference.MatchExpressions[0].Key != zoneKey ||
		pref[0].Preference.MatchExpressions[0].Values[0] != recorded.NodeTopologyLabels[zoneKey] {
		t.Errorf("preferred terms: %+v", pref)
	}

	// Served in both versions, printed NAME AGE.
	out, stderr, err := c.Kubectl(t, "get", "persistentpodstates.v1alpha1.apps.kruise.io", "-n", ns, "echoserver",
		"-o", "jsonpath={.spec.requiredPersistentTopology.nodeTopologyKeys[0]}")
	if err != nil || out != "kubernetes.io/hostname" {
		t.Errorf("v1alpha1 nodeTopologyKeys: %q %v %s", out, err, stderr)
	}
	out, stderr, err = c.Kubectl(t, "get", "persistentpodstates", "-n", ns)
	if err != nil {
		t.Fatalf("kubectl get persistentpodstates: %v: %s", err, stderr)
	}
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME AGE" {
		t.Errorf("kubectl get persistentpodstates:\n%s", out)
	}
}
