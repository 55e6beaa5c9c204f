package v1beta1

import (
	"testing"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

func TestCloneSetUpdateStrategyToHub(t *testing.T) {
	cases := []struct {
		name string
		in   CloneSetUpdateStrategy
		want apps.CloneSetUpdateStrategyType
	}{
		{"rolling update with a policy", CloneSetUpdateStrategy{Type: RollingUpdateCloneSetUpdateStrategyType,
			RollingUpdate: &RollingUpdateCloneSetStrategy{PodUpdatePolicy: InPlaceOnlyCloneSetPodUpdateStrategyType}}, apps.InPlaceOnlyCloneSetUpdateStrategyType},
		{"rolling update without a policy recreates", CloneSetUpdateStrategy{Type: RollingUpdateCloneSetUpdateStrategyType}, apps.RecreateCloneSetUpdateStrategyType},
		{"on delete", CloneSetUpdateStrategy{Type: OnDeleteCloneSetUpdateStrategyType}, apps.OnDeleteCloneSetUpdateStrategyType},
		{"a v1alpha1 type wins over a stale policy", CloneSetUpdateStrategy{Type: "InPlaceIfPossible",
			RollingUpdate: &RollingUpdateCloneSetStrategy{PodUpdatePolicy: RecreateCloneSetPodUpdateStrategyType}}, apps.InPlaceIfPossibleCloneSetUpdateStrategyType},
		{"unknown types reach validation", CloneSetUpdateStrategy{Type: "Sideways",
			RollingUpdate: &RollingUpdateCloneSetStrategy{PodUpdatePolicy: RecreateCloneSetPodUpdateStrategyType}}, "Sideways"},
		{"nothing set stays unset", CloneSetUpdateStrategy{}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out apps.CloneSetUpdateStrategy
			if err := Convert_v1beta1_CloneSetUpdateStrategy_To_apps_CloneSetUpdateStrategy(&tc.in, &out, nil); err != nil {
				t.Fatal(err)
			}
			if out.Type != tc.want {
				t.Fatalf("hub type = %q, want %q", out.Type, tc.want)
			}
		})
	}
}
