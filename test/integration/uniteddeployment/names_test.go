package uniteddeployment

import (
	"context"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// A subset's CloneSet is named <name>-<subset>-<5 random characters> and may be at most
// 52 characters long, its pods labelled controller-revision-hash=<its name>-<hash>:
// with subsets of 8 characters a 38-character UnitedDeployment (and the 60-character
// one of issue 32) is refused at metadata.name, and nothing is stored; at 37 characters
// its CloneSets and their pods exist.
func TestNameTooLongForSubsetsRefused(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	for _, n := range []int{38, 60} {
		name := strings.Repeat("u", n)
		out, err := c.KubectlStdin(t, udManifest(name, workloadTemplate("cloneSetTemplate", name, "")), "apply", "-n", ns, "-f", "-")
		if err == nil {
			t.Fatalf("a %d-character name was accepted:\n%s", n, out)
		}
		if msg := err.Error(); !strings.Contains(msg, "is invalid") || !strings.Contains(msg, "metadata.name: Invalid value") ||
			!strings.Contains(msg, "must be no more than 37 characters: the CloneSet of subset subset-a") {
			t.Errorf("a %d-character name: %q, want 422 at metadata.name with the limit", n, msg)
		}
		if _, err := kruise(c).AppsV1beta1().UnitedDeployments(ns).Get(context.Background(), name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("stored anyway (get: %v)", err)
		}
	}

	name := strings.Repeat("u", 37)
	apply(t, c, ns, udManifest(name, workloadTemplate("cloneSetTemplate", name, "")))
	waitPods(t, c, ns, "app="+name, map[string]int{"subset-a": 1, "subset-b": 3}, 2*time.Minute)
	list, err := kruise(c).AppsV1beta1().CloneSets(ns).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, cs := range list.Items {
		if len(cs.Name) != 52 {
			t.Errorf("subset CloneSet %s: %d characters, want 52", cs.Name, len(cs.Name))
		}
	}
}
