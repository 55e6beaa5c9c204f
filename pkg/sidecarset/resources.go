package sidecarset

import (
	"fmt"
	"math"
	"regexp"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourceexpr"
)

// SidecarResources computes the resources a sidecar with policy p gets in pod, by
// OpenKruise's rules (resourcesPolicy, v1.9):
//   - targets are the pod's plain containers and native sidecars (init containers
//     with restartPolicy Always) whose names match the regex, except the containers
//     that SidecarSets inject (sidecarNames); no target is an error, so the pod is
//     refused rather than given a sidecar sized from nothing;
//   - per resource (cpu, memory), sum adds and max takes the largest target value;
//   - a target without a limit makes that limit unlimited, and an unlimited aggregate
//     leaves the sidecar's limit unset whatever the expression says;
//   - a target without a request counts as 0;
//   - an expression left empty sets nothing; a negative result is an error.
//
// CPU results are rounded to the millicore and memory to the byte.
func SidecarResources(p *apps.ResourcesPolicy, pod *corev1.Pod, sidecarNames sets.Set[string]) (corev1.ResourceRequirements, error) {
	var out corev1.ResourceRequirements
	re, err := regexp.Compile(p.TargetContainersNameRegex)
	if err != nil {
		return out, fmt.Errorf("targetContainersNameRegex: %w", err)
	}
	targets := targetContainers(pod, re, sidecarNames)
	if len(targets) == 0 {
		return out, fmt.Errorf("no container of the pod matches targetContainersNameRegex %q", p.TargetContainersNameRegex)
	}
	limits, requests := aggregate(targets, p.TargetContainersMode)
	if l := p.ResourcesExpr.Limits; l != nil {
		if out.Limits, err = evaluate(map[corev1.ResourceName]string{corev1.ResourceCPU: l.CPU, corev1.ResourceMemory: l.Memory}, limits, "limits"); err != nil {
			return out, err
		}
	}
	if r := p.ResourcesExpr.Requests; r != nil {
		if out.Requests, err = evaluate(map[corev1.ResourceName]string{corev1.ResourceCPU: r.CPU, corev1.ResourceMemory: r.Memory}, requests, "requests"); err != nil {
			return out, err
		}
	}
	return out, nil
}

// Variable is the name an expression for resource uses for the aggregate.
func Variable(r corev1.ResourceName) string { return string(r) }

func targetContainers(pod *corev1.Pod, re *regexp.Regexp, sidecarNames sets.Set[string]) []corev1.Container {
	var out []corev1.Container
	for _, c := range pod.Spec.InitContainers {
		native := c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
		if native && !sidecarNames.Has(c.Name) && re.MatchString(c.Name) {
			out = append(out, c)
		}
	}
	for _, c := range pod.Spec.Containers {
		if !sidecarNames.Has(c.Name) && re.MatchString(c.Name) {
			out = append(out, c)
		}
	}
	return out
}

// aggregate returns, per resource, the aggregate of the targets' limits (absent when
// some target has no limit: unlimited) and requests (always present, 0 if none).
func aggregate(targets []corev1.Container, mode apps.TargetContainersModeType) (limits, requests map[corev1.ResourceName]float64) {
	limits, requests = map[corev1.ResourceName]float64{}, map[corev1.ResourceName]float64{}
	combine := func(acc, v float64) float64 {
		if mode == apps.TargetContainersModeMax {
			return math.Max(acc, v)
		}
		return acc + v
	}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		limited := true
		for _, c := range targets {
			if q, ok := c.Resources.Limits[r]; ok {
				limits[r] = combine(limits[r], q.AsApproximateFloat64())
			} else {
				limited = false
			}
			if q, ok := c.Resources.Requests[r]; ok {
				requests[r] = combine(requests[r], q.AsApproximateFloat64())
			} else {
				requests[r] = combine(requests[r], 0)
			}
		}
		if !limited {
			delete(limits, r)
		}
	}
	return limits, requests
}

func evaluate(exprs map[corev1.ResourceName]string, values map[corev1.ResourceName]float64, kind string) (corev1.ResourceList, error) {
	var out corev1.ResourceList
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		src := exprs[r]
		value, ok := values[r]
		if src == "" || !ok {
			continue
		}
		e, err := resourceexpr.Parse(src, Variable(r))
		if err != nil {
			return nil, fmt.Errorf("resourcesExpr.%s.%s: %w", kind, r, err)
		}
		v, err := e.Eval(value)
		if err != nil {
			return nil, fmt.Errorf("resourcesExpr.%s.%s: %w", kind, r, err)
		}
		if v < 0 {
			return nil, fmt.Errorf("resourcesExpr.%s.%s: %q gives %v, below zero", kind, r, src, v)
		}
		if out == nil {
			out = corev1.ResourceList{}
		}
		out[r] = quantity(r, v)
	}
	return out, nil
}

func quantity(r corev1.ResourceName, v float64) resource.Quantity {
	if r == corev1.ResourceCPU {
		return *resource.NewMilliQuantity(int64(math.Round(v*1000)), resource.DecimalSI)
	}
	return *resource.NewQuantity(int64(math.Round(v)), resource.BinarySI)
}
