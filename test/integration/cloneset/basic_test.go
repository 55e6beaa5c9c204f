package cloneset

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// cloneset-basic.yaml: 3 pods created directly by the CloneSet (no ReplicaSet);
// kubectl prints the columns; events SuccessfulCreate from cloneset-controller.
func TestBasicCreatesPods(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	applyExample(t, ns, "cloneset-basic.yaml", nil)
	cs := waitStatus(t, ns, "cs-demo", 2*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 3 && s.ReadyReplicas == 3 && s.UpdatedReplicas == 3 && s.UpdatedReadyReplicas == 3
	})
	pods := podsOf(t, ns, cs)
	if len(pods) != 3 {
		t.Fatalf("%d pods, want 3", len(pods))
	}
	for _, p := range pods {
		if !strings.HasPrefix(p.Name, "cs-demo-") || len(p.Name) != len("cs-demo-")+5 {
			t.Errorf("pod name %q, want cs-demo-<5 chars>", p.Name)
		}
		if p.Labels["controller-revision-hash"] != cs.Status.UpdateRevision || p.Labels["apps.kruise.io/cloneset-instance-id"] == "" {
			t.Errorf("pod %s labels %v lack the revision %s or instance id", p.Name, p.Labels, cs.Status.UpdateRevision)
		}
		if !isPodReady(&p) {
			t.Errorf("pod %s not ready", p.Name)
		}
	}
	if rs, _ := c.Client.AppsV1().ReplicaSets(ns).List(context.Background(), metav1.ListOptions{}); len(rs.Items) != 0 {
		t.Errorf("%d ReplicaSets exist; CloneSet must own pods directly", len(rs.Items))
	}
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		return eventReasons(t, ns, "cs-demo")["SuccessfulCreate"] >= 3, nil
	})
	out, _, err := c.Kubectl(t, "get", "cloneset", "cs-demo", "-n", ns, "--no-headers")
	if err != nil {
		t.Fatal(err)
	}
	if f := strings.Fields(out); len(f) < 6 || f[1] != "3" || f[2] != "3" || f[3] != "3" || f[4] != "3" || f[5] != "3" {
		t.Fatalf("kubectl get cloneset = %q, want DESIRED UPDATED UPDATED_READY READY TOTAL all 3", out)
	}

	// Scale down to 1 and back up.
	if _, err := kruise(t).AppsV1alpha1().CloneSets(ns).Patch(context.Background(), "cs-demo", types.MergePatchType,
		[]byte(`{"spec":{"replicas":1}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitStatus(t, ns, "cs-demo", time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 1 && s.ReadyReplicas == 1
	})
	if n := len(podsOf(t, ns, cs)); n != 1 {
		t.Fatalf("%d pods after scaling to 1", n)
	}
}
