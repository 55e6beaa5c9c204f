package podunavailablebudget

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	policyv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/policy/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
	policylisters "github.com/kruise-native/kruise-native/pkg/generated/listers/policy/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/podbudget"
)

type fixedTargets map[string]*target

func (f fixedTargets) Get(_ context.Context, _ string, ref *policyv1beta1.TargetReference) (*target, error) {
	if t, ok := f[ref.Kind+"/"+ref.Name]; ok {
		return t, nil
	}
	return nil, apierrors.NewNotFound(policyv1beta1.Resource(ref.Kind), ref.Name)
}

func pod(name string, owner types.UID, ready bool) *corev1.Pod {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", Labels: map[string]string{"app": "web"}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}},
	}
	if owner != "" {
		p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web", UID: owner, Controller: ptrTrue()}}
	}
	return p
}

func ptrTrue() *bool { t := true; return &t }

// The controller counts the target's pods against its replicas, keeps the webhook's
// fresh records, and writes nothing when nothing changed.
func TestSync(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	one := intstr.FromInt32(1)
	pub := &policyv1beta1.PodUnavailableBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "web-pub", Namespace: "ns", Generation: 2},
		Spec: policyv1beta1.PodUnavailableBudgetSpec{
			TargetReference: &policyv1beta1.TargetReference{APIVersion: "apps.kruise.io/v1alpha1", Kind: "CloneSet", Name: "web"},
			MaxUnavailable:  &one},
		Status: policyv1beta1.PodUnavailableBudgetStatus{
			DisruptedPods: map[string]metav1.Time{"p0": metav1.NewTime(now.Add(-time.Second))}},
	}
	client := fake.NewSimpleClientset(pub) // NewClientset needs a schema our apply configurations lack
	pubs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	pods := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	_ = pubs.Add(pub)
	for i := range 5 {
		_ = pods.Add(pod(fmt.Sprintf("p%d", i), "cs-uid", i != 4))
	}
	_ = pods.Add(pod("stranger", "other-uid", true)) // selected by labels, not the target's
	c := &Controller{
		kruiseClient: client,
		targets:      fixedTargets{"CloneSet/web": {UID: "cs-uid", Replicas: 6, OwnsPodsDirectly: true, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}},
		recorder:     record.NewFakeRecorder(10),
		pubs:         policylisters.NewPodUnavailableBudgetLister(pubs),
		pods:         corelisters.NewPodLister(pods),
		podPatcher:   &recordingPatcher{patched: map[string]string{}},
		now:          func() time.Time { return now },
	}
	recheck, err := c.sync(ctx, "ns/web-pub")
	if err != nil {
		t.Fatal(err)
	}
	got, err := client.PolicyV1beta1().PodUnavailableBudgets("ns").Get(ctx, "web-pub", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// 6 replicas, desired 5; p0 just deleted (recorded), p4 unready: 3 available
	want := policyv1beta1.PodUnavailableBudgetStatus{ObservedGeneration: 2, TotalReplicas: 6, DesiredAvailable: 5,
		CurrentAvailable: 3, UnavailableAllowed: 0, DisruptedPods: pub.Status.DisruptedPods}
	if fmt.Sprint(got.Status) != fmt.Sprint(want) {
		t.Errorf("status %+v\nwant   %+v", got.Status, want)
	}
	if recheck != podbudget.DeletionTimeout-time.Second {
		t.Errorf("recheck after %v", recheck)
	}

	// a second sync on the written status writes nothing
	_ = pubs.Update(got)
	writes := len(client.Actions())
	if _, err := c.sync(ctx, "ns/web-pub"); err != nil {
		t.Fatal(err)
	}
	if n := len(client.Actions()) - writes; n != 0 {
		t.Errorf("unchanged budget: %d writes", n)
	}
}
