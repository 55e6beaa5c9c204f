package advancedcronjob_test

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/advancedcronjob"
)

func validACJ() *apps.AdvancedCronJob {
	in := &v1alpha1.AdvancedCronJob{
		ObjectMeta: metav1.ObjectMeta{Name: "nightly", Namespace: metav1.NamespaceDefault},
		Spec: v1alpha1.AdvancedCronJobSpec{Schedule: "0 2 * * *", Template: v1alpha1.CronJobTemplate{
			BroadcastJobTemplate: &v1alpha1.BroadcastJobTemplateSpec{Spec: v1alpha1.BroadcastJobSpec{
				Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever,
					Containers:    []corev1.Container{{Name: "scan", Image: "scan:1"}},
				}},
			}},
		}},
	}
	scheme.Scheme.Default(in)
	out := &apps.AdvancedCronJob{}
	if err := scheme.Scheme.Convert(in, out, nil); err != nil {
		panic(err)
	}
	return out
}

func TestTable(t *testing.T) {
	j := validACJ()
	row := func() []interface{} {
		tbl, err := advancedcronjob.TableConvertor.ConvertToTable(context.Background(), j, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range tbl.ColumnDefinitions {
			names = append(names, c.Name)
		}
		if got, want := strings.Join(names, " "), "Name SCHEDULE TYPE LASTSCHEDULETIME AGE"; !strings.EqualFold(got, want) {
			t.Errorf("columns %q, want %q", got, want)
		}
		return tbl.Rows[0].Cells
	}
	if c := row(); c[0] != "nightly" || c[1] != "0 2 * * *" || c[2] != "" || c[3] != "<none>" {
		t.Errorf("never scheduled: row %v", c)
	}
	j.Status = apps.AdvancedCronJobStatus{Type: apps.BroadcastJobTemplate,
		LastScheduleTime: &metav1.Time{Time: time.Now().Add(-5 * time.Minute)}}
	if c := row(); c[2] != "BroadcastJob" || c[3] != "5m" {
		t.Errorf("scheduled: row %v", c)
	}
}
