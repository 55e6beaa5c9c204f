package broadcastjob_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/registry/apps/broadcastjob"
)

func validJob() *apps.BroadcastJob {
	in := &v1alpha1.BroadcastJob{
		ObjectMeta: metav1.ObjectMeta{Name: "scan", Namespace: metav1.NamespaceDefault},
		Spec: v1alpha1.BroadcastJobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever,
			Containers:    []corev1.Container{{Name: "scan", Image: "scan:1"}},
		}}},
	}
	scheme.Scheme.Default(in)
	out := &apps.BroadcastJob{}
	if err := scheme.Scheme.Convert(in, out, nil); err != nil {
		panic(err)
	}
	return out
}

func TestTable(t *testing.T) {
	j := validJob()
	j.Status = apps.BroadcastJobStatus{Desired: 4, Active: 1, Succeeded: 2, Failed: 1}
	tbl, err := broadcastjob.TableConvertor.ConvertToTable(context.Background(), j, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range tbl.ColumnDefinitions {
		names = append(names, c.Name)
	}
	if got, want := strings.Join(names, " "), "Name DESIRED ACTIVE SUCCEEDED FAILED AGE"; !strings.EqualFold(got, want) {
		t.Errorf("columns %q, want %q", got, want)
	}
	if c := tbl.Rows[0].Cells; c[0] != "scan" || c[1] != int64(4) || c[2] != int64(1) || c[3] != int64(2) || c[4] != int64(1) {
		t.Errorf("row %v", c)
	}
}

// A job has no replicas and OpenKruise does not protect it from cascading deletion.
func TestNoActivePods(t *testing.T) {
	if _, _, ok := broadcastjob.Kind.ActivePods(validJob()); ok {
		t.Errorf("ActivePods counted a BroadcastJob")
	}
}
