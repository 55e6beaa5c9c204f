package report

import (
	"testing"

	"github.com/kruise-native/kruise-native/test/bench/internal/proc"
)

func TestBatchCPU(t *testing.T) {
	for _, tc := range []struct {
		name string
		cpu  map[string]float64
		want string
	}{
		{name: "none", want: "not measured"},
		{name: "busiest first, node daemons summed", cpu: map[string]float64{
			"etcd": 3, "kube-apiserver": 10, "kruise-node-daemon-kwok-node-0": 1, "kruise-node-daemon-kwok-node-1": 1.5,
		}, want: "15.5 in all: kube-apiserver 10.0, etcd 3.0, kruise-node-daemon ×2 2.5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := batchCPU(tc.cpu); got != tc.want {
				t.Errorf("batchCPU = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestQuietAfter(t *testing.T) {
	for _, tc := range []struct {
		q    proc.Idle
		want string
	}{
		{q: proc.Idle{Seconds: 4.2, Reached: true, Cores: 0.1}, want: "4"},
		{q: proc.Idle{Seconds: 120, Cores: 0.8}, want: "not quiet (120 s, 0.80 cores)"},
		{q: proc.Idle{}, want: "0"},
	} {
		if got := quietAfter(tc.q); got != tc.want {
			t.Errorf("quietAfter(%+v) = %q, want %q", tc.q, got, tc.want)
		}
	}
}
