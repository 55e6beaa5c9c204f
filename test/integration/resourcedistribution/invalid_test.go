package resourcedistribution

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	kruiseclient "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned"
	"github.com/kruise-native/kruise-native/test/integration/framework"
)

// Bad input is refused by kubectl apply with the field that is wrong, and nothing is
// stored.
func TestBadInputRefusedWithTheField(t *testing.T) {
	c := framework.Get(t)
	kc := kruiseclient.NewForConfigOrDie(c.Config)
	tests := []struct {
		name, manifest, field string
	}{
		{"a Deployment as resource", `apiVersion: apps.kruise.io/v1alpha1
kind: ResourceDistribution
metadata:
  name: bad-kind
spec:
  resource:
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: web
  targets:
    allNamespaces: true
`, "spec.resource.kind"},
		{"an invalid namespace selector", `apiVersion: apps.kruise.io/v1alpha1
kind: ResourceDistribution
metadata:
  name: bad-selector
spec:
  resource:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: game-demo
  targets:
    namespaceLabelSelector:
      matchExpressions:
      - key: group
        operator: Like
        values: [test]
`, "spec.targets.namespaceLabelSelector.matchExpressions[0].operator"},
		{"an invalid included namespace name", `apiVersion: apps.kruise.io/v1beta1
kind: ResourceDistribution
metadata:
  name: bad-namespace
spec:
  resource:
    apiVersion: v1
    kind: Secret
    metadata:
      name: pull
  targets:
    includedNamespaces:
      list:
      - name: Not_A_Namespace
`, "spec.targets.includedNamespaces.list[0].name"},
		{"a namespace both included and excluded", `apiVersion: apps.kruise.io/v1alpha1
kind: ResourceDistribution
metadata:
  name: bad-both
spec:
  resource:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: game-demo
  targets:
    includedNamespaces:
      list:
      - name: ns-1
    excludedNamespaces:
      list:
      - name: ns-1
`, "spec.targets.excludedNamespaces.list[0].name"},
		// Resources another controller writes: both would rewrite the copies for ever.
		{"a ServiceAccount token Secret", `apiVersion: apps.kruise.io/v1alpha1
kind: ResourceDistribution
metadata:
  name: bad-sa-token
spec:
  resource:
    apiVersion: v1
    kind: Secret
    metadata:
      name: token
      annotations:
        kubernetes.io/service-account.name: default
    type: kubernetes.io/service-account-token
  targets:
    allNamespaces: true
`, "spec.resource.type"},
		{"the root CA ConfigMap", `apiVersion: apps.kruise.io/v1alpha1
kind: ResourceDistribution
metadata:
  name: bad-root-ca
spec:
  resource:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: kube-root-ca.crt
    data:
      ca.crt: mine
  targets:
    allNamespaces: true
`, "spec.resource.metadata.name"},
		// Kruise Native's own namespace is never a target.
		{"kruise-system named as a target", `apiVersion: apps.kruise.io/v1alpha1
kind: ResourceDistribution
metadata:
  name: bad-kruise-system
spec:
  resource:
    apiVersion: v1
    kind: Secret
    metadata:
      name: planted
    stringData:
      a: b
  targets:
    includedNamespaces:
      list:
      - name: kruise-system
`, "spec.targets.includedNamespaces.list[0].name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.KubectlStdin(t, tt.manifest, "apply", "-f", "-")
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tt.field) || !strings.Contains(err.Error(), "Invalid") && !strings.Contains(err.Error(), "invalid") {
				t.Errorf("refusal does not name %s: %v", tt.field, err)
			}
			name := strings.Fields(strings.SplitN(tt.manifest, "name: ", 2)[1])[0]
			_, getErr := kc.AppsV1alpha1().ResourceDistributions().Get(context.Background(), name, metav1.GetOptions{})
			if !apierrors.IsNotFound(getErr) {
				t.Errorf("%s was stored (get: %v)", name, getErr)
			}
		})
	}
}
