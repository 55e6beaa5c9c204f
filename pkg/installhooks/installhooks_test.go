package installhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
)

const manifests = `apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1beta1.apps.kruise.io
spec:
  group: apps.kruise.io
  version: v1beta1
  groupPriorityMinimum: 1000
  versionPriority: 100
  service: {name: kruise-apiserver, namespace: kruise-system, port: 443}
---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: v1alpha1.policy.kruise.io
spec:
  group: policy.kruise.io
  version: v1alpha1
  groupPriorityMinimum: 1000
  versionPriority: 50
  insecureSkipTLSVerify: true
  service: {name: kruise-apiserver, namespace: kruise-system, port: 443}
`

func writeManifests(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "apiservices.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func newDynamic(objs ...runtime.Object) *dynamicfake.FakeDynamicClient {
	lists := map[schema.GroupVersionResource]string{apiServices: "APIServiceList"}
	for _, gvr := range leftBehind {
		lists[gvr] = "List"
	}
	return dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), lists, objs...)
}

// markAvailable makes every created APIService report Available=status, as
// kube-apiserver's availability controller would.
func markAvailable(dyn *dynamicfake.FakeDynamicClient, status string) {
	dyn.PrependReactor("create", "apiservices", func(a clienttesting.Action) (bool, runtime.Object, error) {
		u := a.(clienttesting.CreateAction).GetObject().(*unstructured.Unstructured)
		_ = unstructured.SetNestedSlice(u.Object, []interface{}{map[string]interface{}{"type": "Available", "status": status, "reason": "Test"}}, "status", "conditions")
		return false, nil, nil
	})
}

func kubeWith(ready bool) *kubefake.Clientset {
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "kruise-system", Name: "kruise-apiserver-cert"},
		Data: map[string][]byte{"ca.crt": []byte("CA PEM")}}
	r := ready
	slice := &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Namespace: "kruise-system", Name: "kruise-apiserver-abc",
			Labels: map[string]string{discoveryv1.LabelServiceName: "kruise-apiserver"}},
		Endpoints: []discoveryv1.Endpoint{{Addresses: []string{"10.0.0.5"}, Conditions: discoveryv1.EndpointConditions{Ready: &r}}},
	}
	return kubefake.NewClientset(secret, slice)
}

func options(t *testing.T, out *bytes.Buffer) RegisterOptions {
	return RegisterOptions{Manifests: writeManifests(t, manifests), Namespace: "kruise-system", Service: "kruise-apiserver",
		CASecret: "kruise-apiserver-cert", Timeout: 300 * time.Millisecond, Interval: 10 * time.Millisecond, Out: out}
}

func TestRegisterWritesCABundleOnceReady(t *testing.T) {
	dyn := newDynamic()
	markAvailable(dyn, "True")
	var out bytes.Buffer
	if err := Register(context.Background(), kubeWith(true), dyn, options(t, &out)); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, name := range []string{"v1beta1.apps.kruise.io", "v1alpha1.policy.kruise.io"} {
		a, err := dyn.Resource(apiServices).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if ca, _, _ := unstructured.NestedString(a.Object, "spec", "caBundle"); ca != encodeBytes([]byte("CA PEM")) {
			t.Errorf("%s: caBundle %q", name, ca)
		}
		if _, found, _ := unstructured.NestedFieldNoCopy(a.Object, "spec", "insecureSkipTLSVerify"); found {
			t.Errorf("%s: insecureSkipTLSVerify kept", name)
		}
	}
	// Again (helm upgrade): the existing objects are updated, not refused.
	if err := Register(context.Background(), kubeWith(true), dyn, options(t, &out)); err != nil {
		t.Fatalf("second run: %v", err)
	}
}

// Without a Ready endpoint nothing is registered: discovery stays as it was.
func TestRegisterWaitsForAReadyEndpoint(t *testing.T) {
	dyn := newDynamic()
	var out bytes.Buffer
	err := Register(context.Background(), kubeWith(false), dyn, options(t, &out))
	if err == nil || !strings.Contains(err.Error(), "no Ready endpoint") {
		t.Fatalf("err = %v, want no Ready endpoint", err)
	}
	list, _ := dyn.Resource(apiServices).List(context.Background(), metav1.ListOptions{})
	if len(list.Items) != 0 {
		t.Errorf("%d APIServices registered without a Ready server", len(list.Items))
	}
}

// A group/version served by CRDs (OpenKruise's) is not taken over: its local APIService
// stays as it is and nothing else is registered. By default that fails the hook with an
// error pointing at the migration; with LeaveCRDServed (the chart's
// installHooks.whenCRDsServe=leave, for an install beside OpenKruise) it succeeds.
func TestRegisterLeavesCRDServedGroups(t *testing.T) {
	for _, leave := range []bool{false, true} {
		t.Run(fmt.Sprintf("leave=%v", leave), func(t *testing.T) {
			local := &unstructured.Unstructured{Object: map[string]interface{}{
				"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
				"metadata": map[string]interface{}{"name": "v1beta1.apps.kruise.io", "labels": map[string]interface{}{"kube-aggregator.kubernetes.io/automanaged": "true"}},
				"spec":     map[string]interface{}{"group": "apps.kruise.io", "version": "v1beta1", "groupPriorityMinimum": int64(1000), "versionPriority": int64(100)},
			}}
			dyn := newDynamic(local)
			markAvailable(dyn, "True")
			var out bytes.Buffer
			o := options(t, &out)
			o.LeaveCRDServed = leave
			err := Register(context.Background(), kubeWith(true), dyn, o)
			switch {
			case leave && err != nil:
				t.Fatalf("err = %v, want success that registers nothing", err)
			case leave && !strings.Contains(out.String(), "migrate-from-crds"):
				t.Errorf("the hook's log does not point at the migration:\n%s", out.String())
			case !leave && (err == nil || !strings.Contains(err.Error(), "migrate-from-crds")):
				t.Fatalf("err = %v, want a refusal pointing at migrate-from-crds", err)
			}
			a, err := dyn.Resource(apiServices).Get(context.Background(), "v1beta1.apps.kruise.io", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, found, _ := unstructured.NestedMap(a.Object, "spec", "service"); found {
				t.Errorf("the CRDs' APIService was pointed at kruise-apiserver: %v", a.Object["spec"])
			}
			if _, err := dyn.Resource(apiServices).Get(context.Background(), "v1alpha1.policy.kruise.io", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				t.Errorf("v1alpha1.policy.kruise.io registered: %v", err)
			}
		})
	}
}

// APIServices that do not become Available are removed again.
func TestRegisterBacksOutWhenNotAvailable(t *testing.T) {
	dyn := newDynamic()
	markAvailable(dyn, "False")
	var out bytes.Buffer
	err := Register(context.Background(), kubeWith(true), dyn, options(t, &out))
	if err == nil || !strings.Contains(err.Error(), "removed again") {
		t.Fatalf("err = %v, want the back-out", err)
	}
	list, _ := dyn.Resource(apiServices).List(context.Background(), metav1.ListOptions{})
	if len(list.Items) != 0 {
		t.Errorf("%d unavailable APIServices left registered", len(list.Items))
	}
}

func TestReadAPIServicesRefusesOtherKinds(t *testing.T) {
	p := writeManifests(t, "apiVersion: v1\nkind: Secret\nmetadata: {name: x}\n")
	if _, err := ReadAPIServices(p); err == nil {
		t.Error("a Secret in the manifests was accepted")
	}
}

func cloneSet(ns, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("apps.kruise.io/v1alpha1")
	u.SetKind("CloneSet")
	u.SetNamespace(ns)
	u.SetName(name)
	return u
}

func apiService(name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("apiregistration.k8s.io/v1")
	u.SetKind("APIService")
	u.SetName(name)
	return u
}

// While a CloneSet exists the uninstall is refused and nothing is removed; once it is
// gone the APIServices are removed.
func TestPreDelete(t *testing.T) {
	p := writeManifests(t, manifests)
	dyn := newDynamic(cloneSet("default", "web"), apiService("v1beta1.apps.kruise.io"), apiService("v1alpha1.policy.kruise.io"))
	var out bytes.Buffer
	err := PreDelete(context.Background(), dyn, p, &out)
	if !errors.Is(err, ErrObjectsRemain) || !strings.Contains(out.String(), "clonesets.apps.kruise.io default/web") {
		t.Fatalf("err = %v, output:\n%s", err, out.String())
	}
	if list, _ := dyn.Resource(apiServices).List(context.Background(), metav1.ListOptions{}); len(list.Items) != 2 {
		t.Errorf("a refused uninstall removed APIServices: %d left", len(list.Items))
	}

	if err := dyn.Resource(leftBehind[0]).Namespace("default").Delete(context.Background(), "web", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := PreDelete(context.Background(), dyn, p, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if list, _ := dyn.Resource(apiServices).List(context.Background(), metav1.ListOptions{}); len(list.Items) != 0 {
		t.Errorf("%d APIServices left after the pre-delete hook", len(list.Items))
	}
}

// A kind the server does not serve (never registered) has no objects; a server that
// cannot answer refuses, naming the way out.
func TestPreDeleteServedAndUnavailable(t *testing.T) {
	p := writeManifests(t, manifests)
	dyn := newDynamic()
	dyn.PrependReactor("list", "*", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: "apps.kruise.io"}, "")
	})
	var out bytes.Buffer
	if err := PreDelete(context.Background(), dyn, p, &out); err != nil {
		t.Errorf("not served: %v", err)
	}

	dyn = newDynamic()
	dyn.PrependReactor("list", "*", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewServiceUnavailable("the server is currently unable to handle the request")
	})
	err := PreDelete(context.Background(), dyn, p, &out)
	if err == nil || !strings.Contains(err.Error(), "--no-hooks") {
		t.Errorf("unavailable: err = %v, want a refusal naming --no-hooks", err)
	}
}
