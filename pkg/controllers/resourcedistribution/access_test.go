package resourcedistribution

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	rdcontract "github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
)

// fakeRBAC answers SubjectAccessReviews: alice may create configmaps in namespace a,
// and a review about namespace "broken" fails to evaluate.
func fakeRBAC(reviews *atomic.Int32) *fake.Clientset {
	client := fake.NewClientset()
	client.PrependReactor("create", "subjectaccessreviews", func(action clienttesting.Action) (bool, runtime.Object, error) {
		reviews.Add(1)
		sar := action.(clienttesting.CreateAction).GetObject().(*authorizationv1.SubjectAccessReview).DeepCopy()
		ra := sar.Spec.ResourceAttributes
		switch {
		case ra.Namespace == "broken":
			sar.Status.EvaluationError = "webhook unreachable"
		case sar.Spec.User == "alice" && sar.Spec.UID == "alice-uid" && sar.Spec.Extra["scopes"][0] == "x" &&
			ra.Verb == "create" && ra.Resource == "configmaps" && ra.Namespace == "a":
			sar.Status.Allowed = true
		}
		return true, sar, nil
	})
	return client
}

func withDistributor(t *testing.T, name string) Source {
	src := source(t, sourceJSON)
	src.Distribution.Annotations = map[string]string{rdcontract.DistributorAnnotation: rdcontract.EncodeDistributor(rdcontract.Distributor{
		Username: name, UID: name + "-uid", Groups: []string{"devs"}, Extra: map[string]authenticationv1.ExtraValue{"scopes": {"x"}}})}
	return src
}

func TestPermittedCreates(t *testing.T) {
	var reviews atomic.Int32
	c := &Controller{access: newReviewer(fakeRBAC(&reviews))}
	ctx := context.Background()
	creates := func(src Source, nss ...string) []Object {
		var out []Object
		for _, ns := range nss {
			out = append(out, src.Desired(ns))
		}
		return out
	}

	alice := withDistributor(t, "alice")
	keep, denied, err := c.permittedCreates(ctx, alice.Distribution, alice.Resource, creates(alice, "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	if len(keep) != 1 || keep[0].GetNamespace() != "a" || len(denied) != 1 || !strings.Contains(denied["b"], `user "alice"`) {
		t.Errorf("kept %v, denied %v; want a kept, b denied naming alice", nsOf(keep), denied)
	}
	asked := reviews.Load() // one cluster-wide, one per namespace
	if asked != 3 {
		t.Errorf("%d reviews, want 3", asked)
	}
	if _, _, err := c.permittedCreates(ctx, alice.Distribution, alice.Resource, creates(alice, "a", "b")); err != nil || reviews.Load() != asked {
		t.Errorf("asking again within the TTL: %v, %d more reviews; want the cached answers", err, reviews.Load()-asked)
	}
	c.access.now = func() time.Time { return time.Now().Add(2 * accessTTL) }
	if _, _, _ = c.permittedCreates(ctx, alice.Distribution, alice.Resource, creates(alice, "a")); reviews.Load() == asked {
		t.Error("an expired answer was reused")
	}

	mallory := withDistributor(t, "mallory")
	if keep, denied, _ := c.permittedCreates(ctx, mallory.Distribution, mallory.Resource, creates(mallory, "a")); len(keep) != 0 || len(denied) != 1 {
		t.Errorf("another user: kept %v; want alice's rights not to count", nsOf(keep))
	}

	none := source(t, sourceJSON)
	keep, denied, err = c.permittedCreates(ctx, none.Distribution, none.Resource, creates(none, "a"))
	if err != nil || len(keep) != 0 || !strings.Contains(denied["a"], "no distributor recorded") {
		t.Errorf("no recorded user: kept %v, denied %v, %v; want nothing created", nsOf(keep), denied, err)
	}

	if _, _, err := c.permittedCreates(ctx, alice.Distribution, alice.Resource, creates(alice, "broken")); err == nil {
		t.Error("an unevaluated review was taken as an answer")
	}
}
