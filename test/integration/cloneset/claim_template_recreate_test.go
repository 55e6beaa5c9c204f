package cloneset

import (
	"context"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// With --feature-gates=RecreatePodWhenChangeVCTInCloneSetGate=true, an update of a
// stateful InPlaceIfPossible CloneSet that changes the image (in place otherwise)
// together with the volumeClaimTemplates' size recreates the pods, and the claims of
// the new pods are made from the new template; the old claims go with the old pods.
func TestClaimTemplateChangeRecreatesPods(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	c.RestartKruiseControllers(t, "KRUISE_CONTROLLER_ARGS=--feature-gates=RecreatePodWhenChangeVCTInCloneSetGate=true")
	t.Cleanup(func() { c.RestartKruiseControllers(t) })

	ns := c.CreateNamespace(t)
	class := "vct-" + ns
	createVolumes(t, class, 2)
	createSizedVolumes(t, class+"-big", class, "2Gi", 2)
	cs := statefulCloneSet("db", class, false)
	cs.Spec.UpdateStrategy.Type = v1alpha1.InPlaceIfPossibleCloneSetUpdateStrategyType
	client := kruise(t).AppsV1alpha1().CloneSets(ns)
	if _, err := client.Create(ctx, cs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	v1 := waitStatus(t, ns, "db", 3*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.Replicas == 2 && s.ReadyReplicas == 2
	})
	old := map[types.UID]string{}
	for _, p := range podsOf(t, ns, v1) {
		old[p.UID] = p.Name
	}

	if _, err := client.Patch(ctx, "db", types.JSONPatchType, []byte(`[
		{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"nginx:1.27"},
		{"op":"replace","path":"/spec/volumeClaimTemplates/0/spec/resources/requests/storage","value":"2Gi"}]`),
		metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	v2 := waitStatus(t, ns, "db", 3*time.Minute, func(s v1alpha1.CloneSetStatus, _ *v1alpha1.CloneSet) bool {
		return s.UpdateRevision != v1.Status.UpdateRevision && s.UpdatedReadyReplicas == 2 && s.ReadyReplicas == 2 && s.Replicas == 2
	})
	pods := podsOf(t, ns, v2)
	var want []string
	for _, p := range pods {
		if name, ok := old[p.UID]; ok {
			t.Errorf("pod %s was updated in place, want it recreated with a claim of the new template", name)
		}
		want = append(want, "data-"+p.Name)
		claim, err := c.Client.CoreV1().PersistentVolumeClaims(ns).Get(ctx, "data-"+p.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := claim.Spec.Resources.Requests[corev1.ResourceStorage]; got.Cmp(resource.MustParse("2Gi")) != 0 {
			t.Errorf("claim %s requests %s, want the new template's 2Gi", claim.Name, got.String())
		}
	}
	if t.Failed() {
		return
	}
	slices.Sort(want)
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		return slices.Equal(liveClaims(t, ns), want), nil
	})
}
