package apiserver

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	registryrest "k8s.io/apiserver/pkg/registry/rest"

	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
)

// The registry's storage, grouped: one APIGroupInfo per group in group order, each
// version's paths as given, the versions' priority from the scheme (v1beta1 first).
func TestGroupInfos(t *testing.T) {
	var cs, css, budgets registryrest.Storage // the paths' storage is carried, not used
	storage := map[schema.GroupVersion]map[string]registryrest.Storage{
		{Group: "policy.kruise.io", Version: "v1alpha1"}: {"podunavailablebudgets": budgets},
		{Group: "apps.kruise.io", Version: "v1alpha1"}:   {"clonesets": cs, "clonesets/status": css},
		{Group: "apps.kruise.io", Version: "v1beta1"}:    {"clonesets": cs, "clonesets/status": css},
	}
	infos, err := groupInfos(scheme.Scheme, scheme.Codecs, storage)
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 2 || infos[0].PrioritizedVersions[0].Group != "apps.kruise.io" || infos[1].PrioritizedVersions[0].Group != "policy.kruise.io" {
		t.Fatalf("groups %v, want apps.kruise.io then policy.kruise.io", infos)
	}
	apps := infos[0]
	if apps.PrioritizedVersions[0].Version != "v1beta1" {
		t.Errorf("apps.kruise.io versions %v, want v1beta1 first", apps.PrioritizedVersions)
	}
	for _, v := range []string{"v1alpha1", "v1beta1"} {
		if len(apps.VersionedResourcesStorageMap[v]) != 2 {
			t.Errorf("apps.kruise.io/%s paths %v", v, apps.VersionedResourcesStorageMap[v])
		}
	}
	if _, err := groupInfos(scheme.Scheme, scheme.Codecs, map[schema.GroupVersion]map[string]registryrest.Storage{
		{Group: "nothing.example.com", Version: "v1"}: {"things": nil},
	}); err == nil {
		t.Error("a group the scheme does not know was accepted")
	}
}
