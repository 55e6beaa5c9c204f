package ha

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// Every Kruise APIService and the Pod webhook point at the load balancer, not at a
// replica, and the APIServices are Available through it.
func TestAPIServicesThroughLoadBalancer(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	lb := c.Stack.Ports.KruiseAPIServer
	for _, p := range c.Stack.Ports.KruiseAPIServerReplicas {
		if p == lb {
			t.Fatalf("the load balancer's port %d is a replica's", lb)
		}
	}
	names, err := c.RegisteredKruiseAPIServices(ctx)
	if err != nil || len(names) == 0 {
		t.Fatalf("registered Kruise APIServices: %v %v", names, err)
	}
	gvr := schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}
	for _, name := range names {
		obj, err := c.Dynamic.Resource(gvr).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		port, _, _ := unstructured.NestedInt64(obj.Object, "spec", "service", "port")
		if int(port) != lb {
			t.Errorf("APIService %s: service port %d, want the load balancer's %d", name, port, lb)
		}
		ok, msg, err := c.APIServiceAvailable(ctx, name)
		if err != nil || !ok {
			t.Errorf("APIService %s not Available: %s %v", name, msg, err)
		}
	}
	hooks, err := c.Client.AdmissionregistrationV1().MutatingWebhookConfigurations().Get(ctx, "kruise-pod-webhook", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hooks.Webhooks {
		if url := ptr.Deref(h.ClientConfig.URL, ""); !strings.Contains(url, fmt.Sprintf("127.0.0.1:%d/", lb)) {
			t.Errorf("webhook %s calls %s, want the load balancer 127.0.0.1:%d", h.Name, url, lb)
		}
	}
	for _, r := range c.Stack.KruiseAPIServers() {
		up, err := c.Stack.LoadBalanced(ctx, r)
		if err != nil || !up {
			t.Errorf("%s not in the load balancer's pool: %v", r, err)
		}
	}
}

// Killing either kruise-apiserver replica keeps `kubectl get clonesets` working: it
// answers again within 5 s of the kill, and never fails after that.
func TestKruiseAPIServerFailover(t *testing.T) {
	c := framework.Get(t)
	ns := c.CreateNamespace(t)
	for _, replica := range c.Stack.KruiseAPIServers() {
		t.Run(replica, func(t *testing.T) {
			if _, _, err := c.Kubectl(t, "get", "clonesets", "-n", ns); err != nil {
				t.Fatalf("before the kill: %v", err)
			}
			c.KillComponent(t, replica)
			killed := time.Now()
			t.Cleanup(func() { c.StartComponent(t, replica) })

			var recovered time.Duration
			var lastErr error
			for recovered == 0 {
				_, _, err := c.Kubectl(t, "get", "clonesets", "-n", ns)
				if err == nil {
					recovered = time.Since(killed)
					break
				}
				lastErr = err
				if time.Since(killed) > 5*time.Second {
					t.Fatalf("kubectl get clonesets still failing 5s after killing %s: %v", replica, lastErr)
				}
				time.Sleep(100 * time.Millisecond)
			}
			t.Logf("kubectl get clonesets answered %s after killing %s", recovered.Round(10*time.Millisecond), replica)
			// and keeps answering, with no error, while the replica stays down
			for i := 0; i < 20; i++ {
				if _, _, err := c.Kubectl(t, "get", "clonesets", "-n", ns); err != nil {
					t.Fatalf("call %d after failover: %v", i+1, err)
				}
			}
		})
	}
}

// Killing the kruise-controller leader: the other replica takes the Lease over and a
// CloneSet still reconciles.
func TestControllerLeaderFailover(t *testing.T) {
	c := framework.Get(t)
	ctx := context.Background()
	ns := c.CreateNamespace(t)
	kc := kruiseclient.NewForConfigOrDie(c.Config)
	leader, err := c.Stack.ControllerLeader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cs := cloneSet("failover", 2)
	if _, err := kc.AppsV1alpha1().CloneSets(ns).Create(ctx, cs, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitReady(t, kc, ns, "failover", 2)

	c.KillComponent(t, leader)
	t.Cleanup(func() { c.StartComponent(t, leader) })
	var next string
	framework.WaitFor(t, time.Minute, func() (bool, error) {
		l, err := c.Stack.ControllerLeader(ctx)
		next = l
		return err == nil && l != leader, err
	})
	t.Logf("%s killed; %s leads", leader, next)

	if _, err := kc.AppsV1alpha1().CloneSets(ns).Patch(ctx, "failover", types.MergePatchType,
		[]byte(`{"spec":{"replicas":4}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitReady(t, kc, ns, "failover", 4)
}

func cloneSet(name string, replicas int32) *v1alpha1.CloneSet {
	labels := map[string]string{"app": name}
	return &v1alpha1.CloneSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: v1alpha1.CloneSetSpec{
			Replicas: ptr.To(replicas),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25"}}},
			},
		},
	}
}

func waitReady(t *testing.T, kc kruiseclient.Interface, ns, name string, n int32) {
	t.Helper()
	framework.WaitFor(t, 3*time.Minute, func() (bool, error) {
		cs, err := kc.AppsV1alpha1().CloneSets(ns).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		return cs.Status.ObservedGeneration == cs.Generation && cs.Status.ReadyReplicas == n && cs.Status.Replicas == n, nil
	})
}
