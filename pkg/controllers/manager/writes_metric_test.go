package manager

import "testing"

func TestResourceOf(t *testing.T) {
	for path, want := range map[string]string{
		"/api/v1/namespaces/ns/pods":                                                     "pods",
		"/api/v1/namespaces/ns/pods/p1":                                                  "pods",
		"/api/v1/namespaces/ns/pods/p1/status":                                           "pods/status",
		"/apis/apps.kruise.io/v1beta1/namespaces/ns/clonesets/c/status":                  "clonesets/status",
		"/apis/apps/v1/namespaces/ns/controllerrevisions":                                "controllerrevisions",
		"/apis/coordination.k8s.io/v1/namespaces/kruise-system/leases/kruise-controller": "leases",
		"/api/v1/namespaces":                                                             "namespaces",
		"/healthz":                                                                       "other",
	} {
		if got := resourceOf(path); got != want {
			t.Errorf("resourceOf(%q) = %q, want %q", path, got, want)
		}
	}
}
