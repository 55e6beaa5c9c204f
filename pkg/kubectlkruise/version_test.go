package kubectlkruise

import (
	"bytes"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestKruiseAPIsAndPrint(t *testing.T) {
	gv := func(s string) metav1.GroupVersionForDiscovery {
		return metav1.GroupVersionForDiscovery{GroupVersion: s}
	}
	groups := &metav1.APIGroupList{Groups: []metav1.APIGroup{
		{Name: "apps", PreferredVersion: gv("apps/v1"), Versions: []metav1.GroupVersionForDiscovery{gv("apps/v1")}},
		{Name: "policy.kruise.io", PreferredVersion: gv("policy.kruise.io/v1alpha1"), Versions: []metav1.GroupVersionForDiscovery{gv("policy.kruise.io/v1alpha1")}},
		{Name: "apps.kruise.io", PreferredVersion: gv("apps.kruise.io/v1beta1"), Versions: []metav1.GroupVersionForDiscovery{gv("apps.kruise.io/v1alpha1"), gv("apps.kruise.io/v1beta1")}},
	}}
	got := kruiseAPIs(groups)
	want := []string{"apps.kruise.io/v1beta1", "apps.kruise.io/v1alpha1", "policy.kruise.io/v1alpha1"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("kruiseAPIs = %v, want %v", got, want)
	}
	var out bytes.Buffer
	if err := printVersion(&out, Version{ClientVersion: "v0+abc", ServerVersion: "v1.36.0", KruiseAPIs: got}, ""); err != nil {
		t.Fatal(err)
	}
	if out.String() != "Client Version: v0+abc\nServer Version: v1.36.0\nKruise APIs: apps.kruise.io/v1beta1, apps.kruise.io/v1alpha1, policy.kruise.io/v1alpha1\n" {
		t.Errorf("output %q", out.String())
	}
	out.Reset()
	if err := printVersion(&out, Version{ClientVersion: "v0"}, "json"); err != nil || out.String() != "{\n  \"clientVersion\": \"v0\"\n}\n" {
		t.Errorf("json output %q, %v", out.String(), err)
	}
}
