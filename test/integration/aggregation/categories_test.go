package aggregation

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// `kubectl get kruise` lists Kruise objects; `kubectl get all` is kube's core workloads
// only, so it keeps working for every user while kruise-apiserver is down (it failed
// with "the server doesn't have a resource type advancedcronjobs" while six Kruise
// kinds were in the all category). Both with a discovery cache filled while
// kruise-apiserver was up and with none.
func TestKubectlGetAllWithoutKruiseAPIServer(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	client := kruiseclient.NewForConfigOrDie(c.Config)
	if _, err := client.AppsV1alpha1().CloneSets(ns).Create(ctx, cloneSet("listed"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	warm := t.TempDir()
	kubectl := func(cacheDir string, args ...string) (string, error) {
		out, _, err := c.Kubectl(t, append([]string{"--cache-dir=" + cacheDir}, args...)...)
		return out, err
	}

	out, err := kubectl(warm, "get", "kruise", "-A")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "cloneset.apps.kruise.io/listed") {
		t.Fatalf("kubectl get kruise -A lacks the CloneSet:\n%s", out)
	}
	if out, err = kubectl(warm, "get", "all", "-A"); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "kruise.io") {
		t.Errorf("kubectl get all -A lists Kruise objects:\n%s", out)
	}

	c.StopKruiseAPIServer(t)
	// Errorf from here: kruise-apiserver must be started again for the tests after this one.
	getAll := func(when string) {
		for _, cache := range []string{warm, t.TempDir()} {
			if _, err := kubectl(cache, "get", "all", "-A"); err != nil {
				t.Errorf("%s: %v", when, err)
			}
		}
	}
	getAll("right after kruise-apiserver stopped")
	deadline := time.Now().Add(time.Minute)
	for {
		ok, msg, err := c.APIServiceAvailable(ctx, "v1alpha1.apps.kruise.io")
		if err == nil && !ok {
			t.Logf("APIService unavailable: %s", msg)
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("APIService still available a minute after kruise-apiserver stopped (%v)", err)
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	getAll("with the APIService unavailable")
	c.StartKruiseAPIServer(t)
}
