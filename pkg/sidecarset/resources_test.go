package sidecarset

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
)

// res builds a ResourceList from "cpu=200m,memory=200Mi".
func res(s string) corev1.ResourceList {
	if s == "" {
		return nil
	}
	out := corev1.ResourceList{}
	for _, kv := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(kv, "=")
		out[corev1.ResourceName(k)] = resource.MustParse(v)
	}
	return out
}

func ctr(name, limits, requests string) corev1.Container {
	return corev1.Container{Name: name, Resources: corev1.ResourceRequirements{Limits: res(limits), Requests: res(requests)}}
}

func TestSidecarResources(t *testing.T) {
	always := corev1.ContainerRestartPolicyAlways
	engines := []corev1.Container{
		ctr("large.engine.v4", "cpu=200m,memory=200Mi", "cpu=50m,memory=100Mi"),
		ctr("large.engine.v8", "cpu=400m,memory=400Mi", "cpu=100m,memory=200Mi"),
	}
	halfCPU := apps.ResourcesExpr{
		Limits:   &apps.ResourceExprLimits{CPU: "max(cpu*50%, 50m)", Memory: "200Mi"},
		Requests: &apps.ResourceExprRequests{CPU: "max(cpu*50%, 50m)", Memory: "100Mi"},
	}
	cases := []struct {
		name        string
		mode        apps.TargetContainersModeType
		regex       string
		expr        apps.ResourcesExpr
		init        []corev1.Container
		containers  []corev1.Container
		limits      string
		requests    string
		errContains string
	}{
		{name: "one container by name", mode: "sum", regex: `^large.engine.v4$`, expr: halfCPU, containers: engines,
			limits: "cpu=100m,memory=200Mi", requests: "cpu=50m,memory=100Mi"},
		{name: "sum", mode: "sum", regex: `^large.engine.v.*$`, expr: halfCPU, containers: engines,
			limits: "cpu=300m,memory=200Mi", requests: "cpu=75m,memory=100Mi"},
		{name: "max", mode: "max", regex: `^large.engine.v.*$`, expr: halfCPU, containers: engines,
			limits: "cpu=200m,memory=200Mi", requests: "cpu=50m,memory=100Mi"},
		{name: "a target without a cpu limit leaves the sidecar's cpu limit unset", mode: "max", regex: `^large`, expr: halfCPU,
			containers: []corev1.Container{engines[0], ctr("large.engine.v8", "memory=400Mi", "cpu=100m,memory=200Mi")},
			limits:     "memory=200Mi", requests: "cpu=50m,memory=100Mi"},
		{name: "a target without requests counts as zero", mode: "sum", regex: `.*`,
			expr:       apps.ResourcesExpr{Requests: &apps.ResourceExprRequests{CPU: "cpu*50%", Memory: "memory+10Mi"}},
			containers: []corev1.Container{ctr("a", "", "cpu=1,memory=100Mi"), ctr("b", "", "")},
			requests:   "cpu=500m,memory=110Mi"},
		{name: "memory from memory", mode: "sum", regex: `.*`,
			expr:       apps.ResourcesExpr{Limits: &apps.ResourceExprLimits{Memory: "max(memory*50%, 100Mi)"}},
			containers: engines, limits: "memory=300Mi"},
		{name: "native sidecars count, plain init containers and injected sidecars do not", mode: "sum", regex: `.*`,
			expr: apps.ResourcesExpr{Limits: &apps.ResourceExprLimits{CPU: "cpu"}},
			init: []corev1.Container{
				{Name: "native", RestartPolicy: &always, Resources: corev1.ResourceRequirements{Limits: res("cpu=1")}},
				ctr("setup", "cpu=4", ""),
			},
			containers: []corev1.Container{ctr("app", "cpu=2", ""), ctr("injected", "cpu=8", "")},
			limits:     "cpu=3"},
		{name: "no matching container refuses", mode: "sum", regex: `^nothing$`, expr: halfCPU, containers: engines,
			errContains: "no container of the pod matches"},
		{name: "a negative result refuses", mode: "sum", regex: `.*`,
			expr:       apps.ResourcesExpr{Requests: &apps.ResourceExprRequests{CPU: "cpu-1"}},
			containers: engines, errContains: "below zero"},
		{name: "only the injected sidecar matches", mode: "sum", regex: `^injected$`, expr: halfCPU,
			containers: []corev1.Container{ctr("app", "cpu=1", ""), ctr("injected", "cpu=1", "")}, errContains: "no container"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: corev1.PodSpec{InitContainers: c.init, Containers: c.containers}}
			p := &apps.ResourcesPolicy{TargetContainersMode: c.mode, TargetContainersNameRegex: c.regex, ResourcesExpr: c.expr}
			got, err := SidecarResources(p, pod, sets.New("injected"))
			if c.errContains != "" {
				if err == nil || !strings.Contains(err.Error(), c.errContains) {
					t.Fatalf("error = %v, want one containing %q", err, c.errContains)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			assertList(t, "limits", got.Limits, res(c.limits))
			assertList(t, "requests", got.Requests, res(c.requests))
		})
	}
}

func assertList(t *testing.T, what string, got, want corev1.ResourceList) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s = %v, want %v", what, got, want)
		return
	}
	for k, w := range want {
		if g, ok := got[k]; !ok || g.Cmp(w) != 0 {
			t.Errorf("%s[%s] = %v, want %v", what, k, got[k], w.String())
		}
	}
}
