package kubectlkruise

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// `get all` lists kubectl's all category and then the Kruise workloads the server
// serves (here without Kruise Rollout); other TYPE lists go to kubectl unchanged.
func TestExpandAll(t *testing.T) {
	mapper := meta.NewDefaultRESTMapper(nil)
	for _, gr := range kruiseAll {
		if gr.Group != Group {
			continue
		}
		gv := schema.GroupVersion{Group: gr.Group, Version: "v1beta1"}
		mapper.AddSpecific(gv.WithKind(gr.Resource), gv.WithResource(gr.Resource), gv.WithResource(gr.Resource), meta.RESTScopeNamespace)
	}
	const kruise = "clonesets.apps.kruise.io,statefulsets.apps.kruise.io,daemonsets.apps.kruise.io," +
		"broadcastjobs.apps.kruise.io,containerrecreaterequests.apps.kruise.io,advancedcronjobs.apps.kruise.io," +
		"resourcedistributions.apps.kruise.io,uniteddeployments.apps.kruise.io"
	for _, tc := range []struct {
		in       string
		wantsAll bool
		want     string
	}{
		{in: "all", wantsAll: true, want: "all," + kruise},
		{in: "ingress,all", wantsAll: true, want: "ingress,all," + kruise},
		{in: "pods", wantsAll: false},
		{in: "all/x", wantsAll: false},
		{in: "allowlists", wantsAll: false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := wantsAll(tc.in); got != tc.wantsAll {
				t.Fatalf("wantsAll = %v", got)
			}
			if !tc.wantsAll {
				return
			}
			if got := expandAll(tc.in, mapper); got != tc.want {
				t.Errorf("expandAll = %q\nwant          %q", got, tc.want)
			}
		})
	}
}
