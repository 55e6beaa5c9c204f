package workloadspread

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1beta1 "github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
)

func TestExistingPodPatch(t *testing.T) {
	mark := `"apps.kruise.io/matched-workloadspread":"{\"name\":\"ws\",\"subset\":\"a\"}"`
	for _, tc := range []struct {
		name, patch string
		optOut      string
		want        string
	}{
		{"no patch: the mark only", "", "", `{"metadata":{"annotations":{` + mark + `}}}`},
		{"labels and annotations of the patch", `{"metadata":{"labels":{"zone":"a"},"annotations":{"note":"x"}},"spec":{"priorityClassName":"high"}}`, "",
			`{"metadata":{"annotations":{` + mark + `,"note":"x"},"labels":{"zone":"a"}}}`},
		{"opted out", `{"metadata":{"labels":{"zone":"a"}}}`, "true", `{"metadata":{"annotations":{` + mark + `}}}`},
		{"opt-out not true", `{"metadata":{"labels":{"zone":"a"}}}`, "false", `{"metadata":{"annotations":{` + mark + `},"labels":{"zone":"a"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := &appsv1beta1.WorkloadSpread{ObjectMeta: metav1.ObjectMeta{Name: "ws"}}
			if tc.optOut != "" {
				ws.Annotations = map[string]string{IgnorePatchExistingPodsAnnotation: tc.optOut}
			}
			sub := &appsv1beta1.WorkloadSpreadSubset{Name: "a"}
			sub.Patch.Raw = []byte(tc.patch)
			got, err := ExistingPodPatch(ws, sub)
			if err != nil || string(got) != tc.want {
				t.Fatalf("patch %s, %v; want %s", got, err, tc.want)
			}
		})
	}
}
