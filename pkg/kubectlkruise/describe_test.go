package kubectlkruise

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubectl/pkg/describe"
)

// The workload describer reads the object, its pods and its events through the
// clients, and prints them as kubectl describe prints a Deployment.
func TestDescribeCloneSet(t *testing.T) {
	obj := workload("v1beta1", "CloneSet", map[string]interface{}{
		"replicas": int64(2),
		"updateStrategy": map[string]interface{}{
			"type":          "RollingUpdate",
			"rollingUpdate": map[string]interface{}{"partition": int64(1), "paused": true},
		},
		"template": map[string]interface{}{
			"metadata": map[string]interface{}{"labels": map[string]interface{}{"app": "w"}},
			"spec":     map[string]interface{}{"containers": []interface{}{map[string]interface{}{"name": "main", "image": "nginx:1.25"}}},
		},
	}, map[string]interface{}{"replicas": int64(2), "updatedReplicas": int64(1), "readyReplicas": int64(2), "availableReplicas": int64(2)})
	owner := metav1.OwnerReference{APIVersion: Group + "/v1beta1", Kind: "CloneSet", Name: "w", UID: "uid-w", Controller: ptrTrue()}
	pod := func(name string, phase corev1.PodPhase, ownerUID types.UID) *corev1.Pod {
		o := owner
		o.UID = ownerUID
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS, Labels: map[string]string{"app": "w"}, OwnerReferences: []metav1.OwnerReference{o}},
			Status:     corev1.PodStatus{Phase: phase},
		}
	}
	event := &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Name: "w.1", Namespace: testNS},
		InvolvedObject: corev1.ObjectReference{Kind: "CloneSet", Name: "w", Namespace: testNS, UID: "uid-w"},
		Type:           corev1.EventTypeNormal, Reason: "SuccessfulCreate", Message: "succeed to create pod w-a", Count: 1,
	}
	kube := kubefake.NewClientset(pod("w-a", corev1.PodRunning, "uid-w"), pod("w-b", corev1.PodPending, "uid-w"), pod("x", corev1.PodRunning, "uid-other"), event)
	d := &workloadDescriber{
		clients: &Clients{Dynamic: newDynamic(obj), Kube: kube},
		kind:    workloadKinds[gvr("v1beta1", "clonesets").GroupResource()],
	}
	out, err := d.Describe(testNS, "w", describe.DescriberSettings{ShowEvents: true, ChunkSize: 500})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Name:               w\n",
		"Kind:               CloneSet\n",
		"Selector:           app=w\n",
		"Replicas:           2 desired | 1 updated | 2 total | 2 ready | 2 available\n",
		"Pods Status:        1 Running / 1 Waiting / 0 Succeeded / 0 Failed\n",
		"Update Strategy:    rollingUpdate.partition=1, rollingUpdate.paused=true, type=RollingUpdate\n",
		"Paused:             true\n",
		"Pod Template:\n",
		"Image:         nginx:1.25",
		"SuccessfulCreate",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("describe output lacks %q:\n%s", want, out)
		}
	}
}
