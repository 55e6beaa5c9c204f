package workloadtarget

import (
	"context"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	kruisefake "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
)

func meta(uid string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: "w", Namespace: "ns", UID: k8stypes.UID("uid-" + uid)}
}

func TestGet(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "w"}}
	kube := kubefake.NewClientset(
		&appsv1.Deployment{ObjectMeta: meta("dep"), Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](3), Selector: sel}},
		&appsv1.ReplicaSet{ObjectMeta: meta("rs"), Spec: appsv1.ReplicaSetSpec{Selector: sel}},
		&appsv1.StatefulSet{ObjectMeta: meta("sts"), Spec: appsv1.StatefulSetSpec{Replicas: ptr.To[int32](2), Selector: sel}},
		&batchv1.Job{ObjectMeta: meta("job"), Spec: batchv1.JobSpec{Parallelism: ptr.To[int32](4), Selector: sel}},
	)
	kruise := kruisefake.NewClientset(
		&v1beta1.CloneSet{ObjectMeta: meta("cs"), Spec: v1beta1.CloneSetSpec{Replicas: ptr.To[int32](5), Selector: sel}},
		&v1beta1.StatefulSet{ObjectMeta: meta("asts"), Spec: v1beta1.StatefulSetSpec{Replicas: ptr.To[int32](6), Selector: sel}},
	)
	c := Client{Kube: kube, Kruise: kruise}
	cases := []struct {
		apiVersion, kind string
		uid              string
		replicas         int32
		ownsPods         bool
	}{
		{"apps.kruise.io/v1alpha1", "CloneSet", "uid-cs", 5, true},
		{"apps.kruise.io/v1beta1", "StatefulSet", "uid-asts", 6, true},
		{"apps/v1", "Deployment", "uid-dep", 3, false},
		{"apps/v1", "ReplicaSet", "uid-rs", 1, true}, // replicas unset: 1
		{"apps/v1", "StatefulSet", "uid-sts", 2, true},
		{"batch/v1", "Job", "uid-job", 4, true}, // its parallelism
	}
	for _, tc := range cases {
		t.Run(tc.apiVersion+"/"+tc.kind, func(t *testing.T) {
			got, err := c.Get(context.Background(), "ns", tc.apiVersion, tc.kind, "w")
			if err != nil {
				t.Fatal(err)
			}
			if string(got.UID) != tc.uid || got.Replicas != tc.replicas || got.OwnsPodsDirectly != tc.ownsPods ||
				got.Selector.MatchLabels["app"] != "w" || got.Object == nil {
				t.Errorf("got %+v", got)
			}
		})
	}
	if _, err := c.Get(context.Background(), "ns", "apps/v1", "DaemonSet", "w"); err == nil || !strings.Contains(err.Error(), "DaemonSet.apps, which cannot be followed") {
		t.Errorf("unknown kind: %v", err)
	}
	if _, err := c.Get(context.Background(), "ns", "apps/v1", "Deployment", "none"); err == nil {
		t.Error("missing target read without an error")
	}
}
