package resourcedistribution

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

const (
	// what the documented example distributes
	exampleName   = "sample"
	copyName      = "game-demo"
	exampleData   = "enemies=aliens\nlives=3\n"
	dataKey       = "game.properties"
	waitForCopies = time.Minute
)

func examplePath(t *testing.T) string {
	t.Helper()
	p := filepath.Join(framework.Get(t).Root, "examples", "resourcedistribution.yaml")
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("documented example not found: %v", err)
	}
	return p
}

func kubectl(t *testing.T, args ...string) string {
	t.Helper()
	out, _, err := framework.Get(t).Kubectl(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// labelledNamespace creates a test namespace and labels it with kubectl, as a user would.
func labelledNamespace(t *testing.T, labels ...string) string {
	t.Helper()
	ns := framework.Get(t).CreateNamespace(t)
	if len(labels) > 0 {
		kubectl(t, append([]string{"label", "namespace", ns}, labels...)...)
	}
	return ns
}

// copyIn is the ConfigMap game-demo in ns, nil when there is none.
func copyIn(t *testing.T, ns string) *corev1.ConfigMap {
	t.Helper()
	cm, err := framework.Get(t).Client.CoreV1().ConfigMaps(ns).Get(context.Background(), copyName, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return cm
}

// waitCopy waits until ns holds a copy made by rd with the given data.
func waitCopy(t *testing.T, rd *v1alpha1.ResourceDistribution, ns, data string) *corev1.ConfigMap {
	t.Helper()
	var cm *corev1.ConfigMap
	framework.WaitFor(t, waitForCopies, func() (bool, error) {
		cm = copyIn(t, ns)
		switch {
		case cm == nil:
			return false, fmt.Errorf("no %s in %s", copyName, ns)
		case cm.Data[dataKey] != data:
			return false, fmt.Errorf("%s/%s has %q, want %q", ns, copyName, cm.Data[dataKey], data)
		}
		return true, nil
	})
	if ref := metav1.GetControllerOf(cm); ref == nil || ref.UID != rd.UID || ref.Kind != "ResourceDistribution" {
		t.Errorf("copy in %s: controller reference %+v, want the distribution %s", ns, ref, rd.UID)
	}
	if cm.Annotations[v1alpha1.ResourceDistributionFromAnnotation] != exampleName || cm.Annotations[v1alpha1.ResourceDistributionHashAnnotation] == "" {
		t.Errorf("copy in %s: annotations %v, want OpenKruise's from and hashcode", ns, cm.Annotations)
	}
	return cm
}

func waitNoCopy(t *testing.T, ns string) {
	t.Helper()
	framework.WaitFor(t, waitForCopies, func() (bool, error) {
		if cm := copyIn(t, ns); cm != nil {
			return false, fmt.Errorf("%s/%s still there", ns, copyName)
		}
		return true, nil
	})
}

// The documented example, applied unchanged: copies appear in the matching namespaces
// and in a namespace labelled later, follow the source, disappear where the label is
// removed and when the distribution is deleted; a ConfigMap of the same name that was
// there before is reported in status (and by an event) and never written.
func TestExampleDistributesFollowsAndNeverOverwrites(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	kc := kruiseclient.NewForConfigOrDie(c.Config)
	start := time.Now()
	step := func(what string) { t.Logf("%6.1fs %s", time.Since(start).Seconds(), what) }

	matching := labelledNamespace(t, "group=test")
	other := labelledNamespace(t, "group=prod")
	taken := labelledNamespace(t, "group=test")
	theirs, err := c.Client.CoreV1().ConfigMaps(taken).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: copyName}, Data: map[string]string{"mine": "keep me"}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	if out := kubectl(t, "apply", "-f", examplePath(t)); !strings.Contains(out, "resourcedistribution.apps.kruise.io/sample") {
		t.Fatalf("kubectl apply: %s", out)
	}
	t.Cleanup(func() { _, _, _ = c.Kubectl(t, "delete", "resourcedistribution", exampleName, "--ignore-not-found") })
	rd, err := kc.AppsV1alpha1().ResourceDistributions().Get(ctx, exampleName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}

	first := waitCopy(t, rd, matching, exampleData)
	step("copied into the matching namespace")
	if copyIn(t, other) != nil {
		t.Errorf("a namespace the selector does not match got a copy")
	}

	// The pre-existing ConfigMap: reported as a conflict, with its namespace and a reason.
	framework.WaitFor(t, waitForCopies, func() (bool, error) {
		rd, err = kc.AppsV1alpha1().ResourceDistributions().Get(ctx, exampleName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		s := rd.Status
		c := condition(rd, v1alpha1.ResourceDistributionConflictOccurred)
		if s.Desired != 2 || s.Succeeded != 1 || s.Failed != 1 || c == nil || c.Status != v1alpha1.ResourceDistributionConditionTrue {
			return false, fmt.Errorf("status %+v", s)
		}
		if len(c.FailedNamespaces) != 1 || c.FailedNamespaces[0] != taken || !strings.Contains(c.Reason, "not created by this distribution") {
			return false, fmt.Errorf("conflict condition %+v, want namespace %s with a reason", c, taken)
		}
		return rd.Status.ObservedGeneration == rd.Generation, nil
	})
	framework.WaitFor(t, 30*time.Second, func() (bool, error) {
		evs, err := c.Client.CoreV1().Events("").List(ctx, metav1.ListOptions{
			FieldSelector: "involvedObject.name=" + exampleName + ",reason=ConflictOccurred"})
		if err != nil {
			return false, err
		}
		for _, e := range evs.Items {
			if e.InvolvedObject.Kind == "ResourceDistribution" && e.Type == corev1.EventTypeWarning && strings.Contains(e.Message, taken) {
				return true, nil
			}
		}
		return false, fmt.Errorf("no ConflictOccurred event naming %s among %d", taken, len(evs.Items))
	})

	step("conflict reported, with an event")
	// kubectl get prints OpenKruise's columns.
	out := kubectl(t, "get", "distributor", exampleName)
	if !regexp.MustCompile(`(?m)^NAME\s+TOTAL\s+SUCCEED\s+FAILED\s*$`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^sample\s+2\s+1\s+1\s*$`).MatchString(out) {
		t.Errorf("kubectl get distributor:\n%s", out)
	}

	// A namespace labelled after the distribution was made gets a copy.
	later := labelledNamespace(t)
	if copyIn(t, later) != nil {
		t.Fatalf("an unlabelled namespace got a copy")
	}
	kubectl(t, "label", "namespace", later, "group=test")
	waitCopy(t, rd, later, exampleData)
	step("copied into a namespace labelled later")

	// The source changes: every copy follows, with a new hash.
	src, err := os.ReadFile(examplePath(t))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "lives=3", "lives=5", 1)
	if edited == string(src) {
		t.Fatal("the example no longer says lives=3")
	}
	if _, err := c.KubectlStdin(t, edited, "apply", "-f", "-"); err != nil {
		t.Fatal(err)
	}
	newData := strings.Replace(exampleData, "lives=3", "lives=5", 1)
	updated := waitCopy(t, rd, matching, newData)
	waitCopy(t, rd, later, newData)
	step("copies followed the source")
	if updated.UID != first.UID {
		t.Errorf("the copy was replaced (uid %s -> %s), want it updated", first.UID, updated.UID)
	}
	if updated.Annotations[v1alpha1.ResourceDistributionHashAnnotation] == first.Annotations[v1alpha1.ResourceDistributionHashAnnotation] {
		t.Errorf("hashcode annotation did not change with the source")
	}

	// A copy edited by hand is put back.
	kubectl(t, "patch", "configmap", copyName, "-n", later, "--type=merge", "-p", `{"data":{"game.properties":"cheat"}}`)
	waitCopy(t, rd, later, newData)

	// Targets shrink: the label goes, the copy goes; the others stay.
	kubectl(t, "label", "namespace", matching, "group-")
	waitNoCopy(t, matching)
	step("copy deleted where the label went")
	if copyIn(t, later) == nil {
		t.Errorf("the copy in %s went too", later)
	}
	framework.WaitFor(t, waitForCopies, func() (bool, error) {
		rd, err = kc.AppsV1alpha1().ResourceDistributions().Get(ctx, exampleName, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if s := rd.Status; s.Desired != 2 || s.Succeeded != 1 || s.Failed != 1 {
			return false, fmt.Errorf("status %+v, want desired 2 (later, taken)", s)
		}
		return true, nil
	})

	// Never written: the pre-existing ConfigMap is as it was.
	now, err := c.Client.CoreV1().ConfigMaps(taken).Get(ctx, copyName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if now.ResourceVersion != theirs.ResourceVersion || now.Data["mine"] != "keep me" || len(now.OwnerReferences) != 0 {
		t.Errorf("the ConfigMap not made by the distribution was written: %+v", now)
	}

	// Deleting the distribution deletes its copies (garbage collector), not the other one.
	kubectl(t, "delete", "distributor", exampleName)
	waitNoCopy(t, later)
	step("copies deleted with the distribution")
	if cm := copyIn(t, taken); cm == nil || cm.UID != theirs.UID {
		t.Errorf("the ConfigMap not made by the distribution was deleted")
	}
}

func condition(rd *v1alpha1.ResourceDistribution, typ v1alpha1.ResourceDistributionConditionType) *v1alpha1.ResourceDistributionCondition {
	for i := range rd.Status.Conditions {
		if rd.Status.Conditions[i].Type == typ {
			return &rd.Status.Conditions[i]
		}
	}
	return nil
}
