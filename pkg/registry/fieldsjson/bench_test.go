package fieldsjson_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/registry/fieldsjson"
)

// A list shaped like the benchmark's (test/bench/internal/apibench): CloneSets whose
// managedFields record a defaulted pod template, about 45% of each object's JSON.
func cloneSetList(n int) *v1alpha1.CloneSetList {
	var doc strings.Builder
	doc.WriteString(`{"f:metadata":{"f:labels":{".":{},"f:bench":{}}},"f:spec":{".":{},"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{},"f:bench":{},"f:tier":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"main\"}":{".":{},"f:env":{".":{},"k:{\"name\":\"LOG_LEVEL\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"MODE\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{},"f:name":{},"f:protocol":{}}},"f:readinessProbe":{".":{},"f:failureThreshold":{},"f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{},"f:successThreshold":{},"f:timeoutSeconds":{}},"f:resources":{".":{},"f:requests":{".":{},"f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}},"f:updateStrategy":{".":{},"f:maxUnavailable":{},"f:type":{}}}}`)
	f := &metav1.FieldsV1{}
	f.SetRawBytes([]byte(doc.String()))
	l := &v1alpha1.CloneSetList{TypeMeta: metav1.TypeMeta{Kind: "CloneSetList", APIVersion: "apps.kruise.io/v1alpha1"}}
	for i := range n {
		l.Items = append(l.Items, v1alpha1.CloneSet{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cs-%05d", i), Namespace: "bench", UID: "2f1f6c8e-8b2f-4d8c-9a57-3f1d6b1c0a11",
				ResourceVersion: "12345", Generation: 1, CreationTimestamp: now, Labels: map[string]string{"bench": "api"},
				ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kruise-bench", Operation: metav1.ManagedFieldsOperationUpdate,
					APIVersion: "apps.kruise.io/v1alpha1", Time: &now, FieldsType: "FieldsV1", FieldsV1: f}}},
			Spec: v1alpha1.CloneSetSpec{Replicas: ptr.To[int32](3), Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "a", "tier": "web", "bench": "api"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx:1.25",
					Env: []corev1.EnvVar{{Name: "MODE", Value: "production"}, {Name: "LOG_LEVEL", Value: "info"}}}}}}},
		})
	}
	return l
}

func benchmarkList(b *testing.B, s runtime.Serializer) {
	l := cloneSetList(1000)
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Encode(l, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// go test ./pkg/registry/fieldsjson -run=- -bench=List
func BenchmarkListAPIMachinery(b *testing.B) { benchmarkList(b, jsonSerializer(b, codecs(true))) }
func BenchmarkListFieldsJSON(b *testing.B) {
	benchmarkList(b, jsonSerializer(b, fieldsjson.NegotiatedSerializer(codecs(true))))
}
