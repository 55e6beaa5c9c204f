package aggregation

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

func cloneSet(name string) *v1alpha1.CloneSet {
	labels := map[string]string{"app": name}
	return &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx"}}},
			},
		},
	}
}

// Deleting a namespace deletes its CloneSets and the namespace finishes terminating:
// the namespace controller needs metadata-only lists and deletecollection from us.
func TestNamespaceDeletionRemovesCloneSets(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	client := kruiseclient.NewForConfigOrDie(c.Config)
	for i := range 3 {
		if _, err := client.AppsV1alpha1().CloneSets(ns).Create(ctx, cloneSet(fmt.Sprintf("cs-%d", i)), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Client.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	framework.WaitFor(t, 2*time.Minute, func() (bool, error) {
		_, err := c.Client.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
	list, err := client.AppsV1alpha1().CloneSets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 0 {
		t.Fatalf("%d CloneSets survived their namespace", len(list.Items))
	}
}

// kruise-apiserver killed: its APIServices turn unavailable and built-in APIs keep
// working. Started again: they turn available, nothing written before is lost, and an
// informer that was running sees the changes made after the restart.
func TestKruiseAPIServerRestart(t *testing.T) {
	c := framework.Get(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ns := c.CreateNamespace(t)
	client := kruiseclient.NewForConfigOrDie(c.Config)
	if _, err := client.AppsV1alpha1().CloneSets(ns).Create(ctx, cloneSet("before"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	// An informer, as a controller would run one, with a record of what it saw.
	seen := make(chan string, 100)
	factory := kruiseinformers.NewSharedInformerFactoryWithOptions(client, 0, kruiseinformers.WithNamespace(ns))
	informer := factory.Apps().V1alpha1().CloneSets().Informer()
	if _, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) { seen <- "add " + obj.(*v1alpha1.CloneSet).Name },
		UpdateFunc: func(_, obj interface{}) {
			cs := obj.(*v1alpha1.CloneSet)
			seen <- fmt.Sprintf("update %s %d", cs.Name, *cs.Spec.Replicas)
		},
	}); err != nil {
		t.Fatal(err)
	}
	factory.Start(ctx.Done())
	// Shutdown waits for the informers, which stop only once ctx is cancelled.
	defer func() { cancel(); factory.Shutdown() }()
	if !toolscache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		t.Fatal("informer never synced")
	}
	expectSeen(t, seen, "add before")

	c.StopKruiseAPIServer(t)
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		ok, _, err := c.APIServiceAvailable(ctx, "v1alpha1.apps.kruise.io")
		return err == nil && !ok, err
	})
	if _, err := client.AppsV1alpha1().CloneSets(ns).Get(ctx, "before", metav1.GetOptions{}); err == nil {
		t.Fatal("a Kruise read succeeded while kruise-apiserver was down")
	}
	if _, err := c.Client.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "still-works"}}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("built-in API failed while kruise-apiserver was down: %v", err)
	}

	c.StartKruiseAPIServer(t)
	got, err := client.AppsV1alpha1().CloneSets(ns).Get(ctx, "before", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("CloneSet written before the restart: %v", err)
	}
	if *got.Spec.Replicas != 1 {
		t.Fatalf("CloneSet changed across the restart: replicas %d", *got.Spec.Replicas)
	}
	if _, err := client.AppsV1alpha1().CloneSets(ns).Patch(ctx, "before", types.MergePatchType,
		[]byte(`{"spec":{"replicas":4}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := client.AppsV1alpha1().CloneSets(ns).Create(ctx, cloneSet("after"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	expectSeen(t, seen, "update before 4", "add after")
}

// expectSeen waits until every wanted event has been observed, in any order.
func expectSeen(t *testing.T, seen <-chan string, want ...string) {
	t.Helper()
	missing := map[string]bool{}
	for _, w := range want {
		missing[w] = true
	}
	deadline := time.After(2 * time.Minute)
	for len(missing) > 0 {
		select {
		case ev := <-seen:
			delete(missing, ev)
		case <-deadline:
			t.Fatalf("informer never saw %v", missing)
		}
	}
}

// A user without RBAC on clonesets gets 403 through the aggregator; bound to the
// aggregated edit role, the same user may create and scale them.
func TestRBACThroughAggregator(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	impersonated := rest.CopyConfig(c.Config)
	impersonated.Impersonate = rest.ImpersonationConfig{UserName: "jane", Groups: []string{"system:authenticated"}}
	jane := kruiseclient.NewForConfigOrDie(impersonated)

	_, err := jane.AppsV1alpha1().CloneSets(ns).Create(ctx, cloneSet("jane"), metav1.CreateOptions{})
	if !apierrors.IsForbidden(err) {
		t.Fatalf("create without RBAC: err = %v, want 403", err)
	}
	if _, err := jane.AppsV1alpha1().CloneSets(ns).List(ctx, metav1.ListOptions{}); !apierrors.IsForbidden(err) {
		t.Fatalf("list without RBAC: err = %v, want 403", err)
	}

	binding := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "jane-edit"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "edit"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.UserKind, APIGroup: rbacv1.GroupName, Name: "jane"}},
	}
	if _, err := c.Client.RbacV1().RoleBindings(ns).Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Delegated authorization caches decisions briefly; poll until the grant applies.
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		_, err := jane.AppsV1alpha1().CloneSets(ns).Create(ctx, cloneSet("jane"), metav1.CreateOptions{})
		return err == nil, err
	})
	// The controller writes status meanwhile: a Scale read earlier can be stale.
	if err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		scale, err := jane.AppsV1alpha1().CloneSets(ns).GetScale(ctx, "jane", metav1.GetOptions{})
		if err != nil {
			return err
		}
		scale.Spec.Replicas = 2
		_, err = jane.AppsV1alpha1().CloneSets(ns).UpdateScale(ctx, "jane", scale, metav1.UpdateOptions{})
		return err
	}); err != nil {
		t.Fatalf("scale with the edit role: %v", err)
	}
	// The grant is per namespace: another namespace stays closed.
	other := c.CreateNamespace(t)
	if _, err := jane.AppsV1alpha1().CloneSets(other).List(ctx, metav1.ListOptions{}); !apierrors.IsForbidden(err) {
		t.Fatalf("list in a namespace without a binding: err = %v, want 403", err)
	}
}
