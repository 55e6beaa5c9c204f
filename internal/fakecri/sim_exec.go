package fakecri

import (
	"context"
	"fmt"
	"strconv"
)

// ExecExitCodeAnnotation, on a pod, sets the exit code of every ExecSync in the pod's
// containers (exec probes and preStop hooks) while the pod carries it: "0" succeeds,
// anything else fails with that code and a stderr naming the rule. A test flips an exec
// probe by patching it; without the annotation an exec exits 0. ExecExitCodeAnnotation
// + "." + a container name sets it for that container alone, over the pod-wide one.
const ExecExitCodeAnnotation = "fakecri.kruise.io/exec-exit-code"

// PodAnnotationExec returns an ExecHandler that answers by the pod's
// ExecExitCodeAnnotation, read from the simulator's pod cache (so the rule follows
// the pod as the node sees it). Set it with Server.SetExecHandler after NewKubeletSim;
// before the simulator's cache starts, every exec exits 0.
func (k *KubeletSim) PodAnnotationExec() ExecHandler {
	return func(_ context.Context, c Container, _ []string) (ExecResult, error) {
		lister := k.podLister()
		if lister == nil {
			return ExecResult{}, nil
		}
		pod, err := lister.Pods(c.Labels[LabelPodNamespace]).Get(c.Labels[LabelPodName])
		if err != nil {
			return ExecResult{}, nil
		}
		value, ok := pod.Annotations[ExecExitCodeAnnotation+"."+c.Labels[LabelContainerName]]
		if !ok {
			value, ok = pod.Annotations[ExecExitCodeAnnotation]
		}
		if !ok {
			return ExecResult{}, nil
		}
		code, err := strconv.ParseInt(value, 10, 32)
		if err != nil {
			return ExecResult{ExitCode: 126, Stderr: []byte(fmt.Sprintf("%s: %q is no exit code", ExecExitCodeAnnotation, value))}, nil
		}
		res := ExecResult{ExitCode: int32(code)}
		if code != 0 {
			res.Stderr = []byte(fmt.Sprintf("exit code %d set by the pod's %s annotation", code, ExecExitCodeAnnotation))
		}
		return res, nil
	}
}
