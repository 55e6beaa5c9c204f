package kubectlkruise

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/cmd/util/podcmd"
	"k8s.io/kubectl/pkg/scheme"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/podutil"
)

// CreateCRROptions are the flags of `create containerrecreaterequest`. The defaults are
// those of OpenKruise's plugin: fail on the first container that fails, 3s unready
// grace and minimum start, a 300s deadline and 1800s TTL.
type CreateCRROptions struct {
	createRunOptions
	Pod        string
	Containers []string
	Strategy   v1alpha1.ContainerRecreateRequestStrategy
	// FailurePolicy is the flag's string; Strategy.FailurePolicy is set from it.
	FailurePolicy                 string
	TerminationGracePeriodSeconds int64
	UnreadyGracePeriodSeconds     int64
	ActiveDeadlineSeconds         int64
	TTLSecondsAfterFinished       int32
}

func newCmdCreateCRR(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := &CreateCRROptions{
		createRunOptions: createRunOptions{
			PrintFlags: genericclioptions.NewPrintFlags("created").WithTypeSetter(scheme.Scheme),
			IOStreams:  streams,
		},
		FailurePolicy:             string(v1alpha1.ContainerRecreateRequestFailurePolicyFail),
		UnreadyGracePeriodSeconds: 3,
		Strategy:                  v1alpha1.ContainerRecreateRequestStrategy{MinStartedSeconds: 3},
		ActiveDeadlineSeconds:     300,
		TTLSecondsAfterFinished:   1800,
	}
	cmd := &cobra.Command{
		Use:                   "containerrecreaterequest NAME --pod=POD [--containers=NAME,...]",
		DisableFlagsInUseLine: true,
		Aliases:               []string{"crr"},
		Short:                 "Create a ContainerRecreateRequest: recreate containers of a pod in place",
		Long: "Create a ContainerRecreateRequest that recreates the named containers of a pod (all of\n" +
			"them without --containers) on its node, keeping the pod. The server copies each\n" +
			"container's preStop and ports from the pod.",
		Example: "  # Recreate every container of pod web-0\n" +
			"  kubectl kruise create crr restart-web-0 --pod=web-0\n\n" +
			"  # Only main and log-agent, in order, each allowed 30s to stop\n" +
			"  kubectl kruise create containerrecreaterequest r1 --pod=web-0 --containers=main,log-agent --ordered-recreate --termination-grace-period-seconds=30",
		Run: func(cmd *cobra.Command, args []string) {
			cmdutil.CheckErr(o.Run(cmd.Context(), f, cmd, args))
		},
	}
	o.PrintFlags.AddFlags(cmd)
	cmdutil.AddApplyAnnotationFlags(cmd)
	cmdutil.AddValidateFlags(cmd)
	cmdutil.AddDryRunFlag(cmd)
	cmdutil.AddFieldManagerFlagVar(cmd, &o.FieldManager, "kubectl-create")
	fl := cmd.Flags()
	fl.StringVarP(&o.Pod, "pod", "p", o.Pod, "The pod whose containers are recreated.")
	fl.StringSliceVar(&o.Containers, "containers", o.Containers, "The containers to recreate (default: all of the pod's).")
	fl.StringVar(&o.FailurePolicy, "failure-policy", o.FailurePolicy, "Fail (stop at the first container that fails) or Ignore.")
	fl.BoolVar(&o.Strategy.OrderedRecreate, "ordered-recreate", false, "Recreate the next container only after the previous one has started.")
	fl.BoolVar(&o.Strategy.ForceRecreate, "force-recreate", false, "Recreate even if the container is not running.")
	fl.Int64Var(&o.TerminationGracePeriodSeconds, "termination-grace-period-seconds", 0, "Seconds each container has to stop (0: the pod's).")
	fl.Int64VarP(&o.UnreadyGracePeriodSeconds, "unready-grace-period-seconds", "u", o.UnreadyGracePeriodSeconds, "Seconds the pod is marked not ready before the containers stop.")
	fl.Int32VarP(&o.Strategy.MinStartedSeconds, "min-started-seconds", "m", o.Strategy.MinStartedSeconds, "Seconds a new container must run before it counts as recreated.")
	fl.Int64Var(&o.ActiveDeadlineSeconds, "active-deadline-seconds", o.ActiveDeadlineSeconds, "Seconds after which the request fails if not done.")
	fl.Int32Var(&o.TTLSecondsAfterFinished, "ttl-seconds-after-finished", o.TTLSecondsAfterFinished, "Seconds after completion before the request is deleted.")
	return cmd
}

// Run reads the pod (to default and check the containers) and creates the request.
func (o *CreateCRROptions) Run(ctx context.Context, f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	name, rest, err := nameAndCommand(cmd, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return cmdutil.UsageErrorf(cmd, "unexpected arguments after NAME: %v", rest)
	}
	if o.Pod == "" {
		return cmdutil.UsageErrorf(cmd, "--pod is required")
	}
	ns, _, err := f.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return err
	}
	kube, err := f.KubernetesClientSet()
	if err != nil {
		return err
	}
	pod, err := kube.CoreV1().Pods(ns).Get(ctx, o.Pod, metav1.GetOptions{})
	if err != nil {
		return err
	}
	crr, err := o.build(name, pod)
	if err != nil {
		return err
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(crr)
	if err != nil {
		return err
	}
	obj := &unstructured.Unstructured{Object: u}
	unstructured.RemoveNestedField(obj.Object, "status")
	unstructured.RemoveNestedField(obj.Object, "metadata", "creationTimestamp")
	return o.create(ctx, f, cmd, obj)
}

// build is the request for pod: the named containers (each must be the pod's), or all
// of the pod's containers, with the strategy the flags set.
func (o *CreateCRROptions) build(name string, pod *corev1.Pod) (*v1alpha1.ContainerRecreateRequest, error) {
	policy := v1alpha1.ContainerRecreateRequestFailurePolicyType(o.FailurePolicy)
	if policy != v1alpha1.ContainerRecreateRequestFailurePolicyFail && policy != v1alpha1.ContainerRecreateRequestFailurePolicyIgnore {
		return nil, fmt.Errorf("--failure-policy must be Fail or Ignore, not %q", o.FailurePolicy)
	}
	names := o.Containers
	if len(names) == 0 {
		for _, c := range pod.Spec.Containers {
			names = append(names, c.Name)
		}
	}
	containers := make([]v1alpha1.ContainerRecreateRequestContainer, 0, len(names))
	for _, n := range names {
		if podutil.Container(pod, n) == nil { // a request recreates containers of spec.containers only
			return nil, fmt.Errorf("container %s is not valid for pod %s out of: %s", n, pod.Name, podcmd.AllContainerNames(pod))
		}
		containers = append(containers, v1alpha1.ContainerRecreateRequestContainer{Name: n})
	}
	strategy := o.Strategy
	strategy.FailurePolicy = policy
	strategy.UnreadyGracePeriodSeconds = ptr.To(o.UnreadyGracePeriodSeconds)
	if o.TerminationGracePeriodSeconds > 0 {
		strategy.TerminationGracePeriodSeconds = ptr.To(o.TerminationGracePeriodSeconds)
	}
	return &v1alpha1.ContainerRecreateRequest{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.SchemeGroupVersion.String(), Kind: "ContainerRecreateRequest"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: pod.Namespace},
		Spec: v1alpha1.ContainerRecreateRequestSpec{
			PodName:                 pod.Name,
			Containers:              containers,
			Strategy:                &strategy,
			ActiveDeadlineSeconds:   ptr.To(o.ActiveDeadlineSeconds),
			TTLSecondsAfterFinished: ptr.To(o.TTLSecondsAfterFinished),
		},
	}, nil
}
