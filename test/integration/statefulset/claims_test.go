package statefulset

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// withClaims adds a volume claim template (storage class class) to the documented
// in-place manifest, whose retention policy says whenScaled: Delete.
func withClaims(manifest, class string) string {
	return strings.Replace(manifest, "  selector:\n", `  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: ["ReadWriteOnce"]
      storageClassName: `+class+`
      resources:
        requests:
          storage: 1Gi
  selector:
`, 1)
}

// persistentVolumeClaimRetentionPolicy: with whenScaled Delete the claim of a
// scaled-down pod is deleted; with Retain it stays, and comes back into use.
func TestClaimRetentionOnScaleDown(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	class := "class-" + ns
	createVolumes(t, class, 8)
	apply(t, ns, withClaims(readExample(t, "advanced-statefulset-inplace.yaml"), class))
	waitStatus(t, ns, "web", 3*time.Minute, settled(5))
	want := []string{"data-web-0", "data-web-2", "data-web-3", "data-web-4", "data-web-5"}
	if got := claimNames(t, ns); !slices.Equal(got, want) {
		t.Fatalf("claims %v, want %v", got, want)
	}
	for name, p := range livePods(t, ns) {
		i := slices.IndexFunc(p.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == "data" })
		if i < 0 || p.Spec.Volumes[i].PersistentVolumeClaim == nil || p.Spec.Volumes[i].PersistentVolumeClaim.ClaimName != "data-"+name {
			t.Errorf("pod %s has no volume data for claim data-%s", name, name)
		}
	}

	// whenScaled: Delete — scaling 5 -> 3 deletes web-4, web-5 and their claims.
	patchSet(t, ns, "web", `{"spec":{"replicas":3}}`)
	waitStatus(t, ns, "web", 2*time.Minute, settled(3))
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		return slices.Equal(claimNames(t, ns), want[:3]), nil
	})

	// whenScaled: Retain — scaling 3 -> 2 keeps data-web-3; scaling back reuses it.
	patchSet(t, ns, "web", `{"spec":{"persistentVolumeClaimRetentionPolicy":{"whenScaled":"Retain"},"replicas":2}}`)
	waitStatus(t, ns, "web", 2*time.Minute, settled(2))
	// The garbage collector acts within a second or two of an owner change: it must not.
	var claim *corev1.PersistentVolumeClaim
	framework.Consistently(t, 3*time.Second, func() (bool, string) {
		var err error
		claim, err = c.Client.CoreV1().PersistentVolumeClaims(ns).Get(t.Context(), "data-web-3", metav1.GetOptions{})
		if err != nil || claim.DeletionTimestamp != nil {
			return false, fmt.Sprintf("data-web-3 under whenScaled Retain: %v, deleting %v", err, claim != nil && claim.DeletionTimestamp != nil)
		}
		return true, ""
	})
	for _, r := range claim.OwnerReferences {
		if r.Kind == "Pod" {
			t.Errorf("retained claim data-web-3 is owned by pod %s", r.Name)
		}
	}
	patchSet(t, ns, "web", `{"spec":{"replicas":3}}`)
	waitStatus(t, ns, "web", 2*time.Minute, settled(3))
	again, err := c.Client.CoreV1().PersistentVolumeClaims(ns).Get(t.Context(), "data-web-3", metav1.GetOptions{})
	if err != nil || again.UID != claim.UID {
		t.Fatalf("web-3 came back with a new claim (%v): a retained claim must be reused", err)
	}

	// whenDeleted: Delete, set on a running set: its claims get the set as owner, and
	// deleting the set deletes them (the garbage collector follows the references).
	patchSet(t, ns, "web", `{"spec":{"persistentVolumeClaimRetentionPolicy":{"whenDeleted":"Delete"}}}`)
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		list, err := c.Client.CoreV1().PersistentVolumeClaims(ns).List(t.Context(), metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		for _, cl := range list.Items {
			if ref := metav1.GetControllerOf(&cl); ref == nil || ref.Kind != "StatefulSet" || ref.APIVersion != "apps.kruise.io/v1beta1" {
				return false, nil
			}
		}
		return len(list.Items) == 3, nil
	})
	if _, _, err := c.Kubectl(t, "delete", "statefulsets.apps.kruise.io", "web", "-n", ns); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		return len(claimNames(t, ns)) == 0, nil
	})
}
