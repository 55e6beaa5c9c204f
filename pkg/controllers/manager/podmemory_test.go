package manager

import (
	"encoding/json"
	"os"
	"runtime"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// BenchmarkCachedPodBytes reports what the pod cache holds per pod, as decoded from
// protobuf like the informers do, with and without cacheTransform. The pod is one
// of a CloneSet's pods from the scale benchmark, read back from kube-apiserver
// (managed fields included, as stored).
func BenchmarkCachedPodBytes(b *testing.B) {
	raw, err := os.ReadFile("testdata/cloneset-pod.json")
	if err != nil {
		b.Fatal(err)
	}
	var pod corev1.Pod
	if err := json.Unmarshal(raw, &pod); err != nil {
		b.Fatal(err)
	}
	wire, err := pod.Marshal()
	if err != nil {
		b.Fatal(err)
	}
	const pods = 5000
	for _, tc := range []struct {
		name      string
		transform func(any) (any, error)
	}{
		{"managed-fields-stripped", stripManagedFields},
		{"cache-transform", cacheTransform()},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var perPod float64
			for b.Loop() {
				held := make([]any, pods)
				before := liveHeap()
				for i := range held {
					p := &corev1.Pod{}
					if err := p.Unmarshal(wire); err != nil {
						b.Fatal(err)
					}
					if held[i], err = tc.transform(p); err != nil {
						b.Fatal(err)
					}
				}
				perPod = float64(liveHeap()-before) / pods
				runtime.KeepAlive(held)
			}
			b.ReportMetric(perPod, "bytes/pod")
		})
	}
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
