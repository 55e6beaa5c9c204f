package kubectlkruise

import (
	"fmt"
	"sort"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/kubectl/pkg/cmd/exec"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/cmd/util/podcmd"
	"k8s.io/kubectl/pkg/polymorphichelpers"
	"k8s.io/kubectl/pkg/util/podutils"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// NewCmdExec is kubectl's exec (its flags, streams, TTY handling and remote executor)
// with -S/--sidecar, OpenKruise's flag: exec into the container of a SidecarSet sidecar,
// which for a HotUpgrade sidecar is whichever of its pair works now (the pod's
// kruise.io/sidecarset-working-hotupgrade-container annotation). TYPE/NAME may also be
// a CloneSet, Advanced StatefulSet or Advanced DaemonSet: its first active pod is used.
func NewCmdExec(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	registerKruiseTypes()
	o := &exec.ExecOptions{StreamOptions: exec.StreamOptions{IOStreams: streams}, Executor: &exec.DefaultRemoteExecutor{}}
	var sidecar string
	cmd := &cobra.Command{
		Use:                   "exec (POD | TYPE/NAME) [-c CONTAINER | -S SIDECARSET_CONTAINER] [flags] -- COMMAND [args...]",
		DisableFlagsInUseLine: true,
		Short:                 "Execute a command in a container",
		Long: "Execute a command in a container, as kubectl exec does. -S names a sidecar a\n" +
			"SidecarSet injected; for a HotUpgrade sidecar the command runs in the container of\n" +
			"the pair that works now (e.g. envoy-2 for -S envoy).",
		Example: "  # Run date in the working container of the SidecarSet sidecar \"envoy\" of pod mypod\n" +
			"  kubectl kruise exec mypod -S envoy -- date\n\n" +
			"  # A shell in it\n" +
			"  kubectl kruise exec mypod -S envoy -it -- sh\n\n" +
			"  # date in the first pod of the CloneSet web, its default container\n" +
			"  kubectl kruise exec clone/web -- date",
		Run: func(cmd *cobra.Command, args []string) {
			cmdutil.CheckErr(o.Complete(f, cmd, args, cmd.ArgsLenAtDash()))
			if sidecar != "" && o.ContainerName != "" {
				cmdutil.CheckErr(fmt.Errorf("-c and -S cannot be used together"))
			}
			o.ExecutablePodFn = execPodFn(polymorphichelpers.AttachablePodForObjectFn, sidecar, &o.ContainerName)
			cmdutil.CheckErr(o.Validate())
			cmdutil.CheckErr(o.Run())
		},
	}
	cmdutil.AddPodRunningTimeoutFlag(cmd, 60*time.Second)
	cmdutil.AddJsonFilenameFlag(cmd.Flags(), &o.FilenameOptions.Filenames, "to use to exec into the resource")
	cmdutil.AddContainerVarFlags(cmd, &o.ContainerName, o.ContainerName)
	cmd.Flags().StringVarP(&sidecar, "sidecar", "S", "", "SidecarSet container name; for a HotUpgrade sidecar, its working container is chosen")
	cmd.Flags().BoolVarP(&o.Stdin, "stdin", "i", o.Stdin, "Pass stdin to the container")
	cmd.Flags().BoolVarP(&o.TTY, "tty", "t", o.TTY, "Stdin is a TTY")
	cmd.Flags().BoolVarP(&o.Quiet, "quiet", "q", o.Quiet, "Only print output from the remote session")
	return cmd
}

// execPodFn wraps kubectl's choice of pod: Kruise workloads resolve to their first
// active pod, and -S is resolved on the chosen pod into the container kubectl's exec
// then uses (kubectl's exec reads ContainerName only after choosing the pod).
func execPodFn(builtin polymorphichelpers.AttachablePodForObjectFunc, sidecar string, container *string) polymorphichelpers.AttachablePodForObjectFunc {
	return func(getter genericclioptions.RESTClientGetter, obj runtime.Object, timeout time.Duration) (*corev1.Pod, error) {
		var pod *corev1.Pod
		var err error
		if ns, selector, ok := kruiseWorkloadSelector(obj); ok {
			pod, err = firstPod(getter, ns, selector, timeout)
		} else {
			pod, err = builtin(getter, obj, timeout)
		}
		if err != nil || sidecar == "" {
			return pod, err
		}
		name, err := sidecarContainer(pod, sidecar)
		if err != nil {
			return nil, err
		}
		*container = name
		return pod, nil
	}
}

// sidecarContainer resolves -S NAME on pod: the working container of the HotUpgrade
// sidecar NAME, or else the container NAME itself.
func sidecarContainer(pod *corev1.Pod, name string) (string, error) {
	if working, ok := sidecarset.WorkingHotUpgradeContainers(pod)[name]; ok {
		return working, nil
	}
	if c, _ := podcmd.FindContainerByName(pod, name); c != nil {
		return name, nil
	}
	return "", fmt.Errorf("sidecar %s is not a container of pod %s (nor a HotUpgrade sidecar of it) out of: %s",
		name, pod.Name, podcmd.AllContainerNames(pod))
}

// kruiseWorkloadSelector returns the namespace and pod selector of the Kruise workloads
// exec can pick a pod of.
func kruiseWorkloadSelector(obj runtime.Object) (string, *metav1.LabelSelector, bool) {
	var m metav1.Object
	var sel *metav1.LabelSelector
	switch o := obj.(type) {
	case *v1alpha1.CloneSet:
		m, sel = o, o.Spec.Selector
	case *v1beta1.CloneSet:
		m, sel = o, o.Spec.Selector
	case *v1alpha1.StatefulSet:
		m, sel = o, o.Spec.Selector
	case *v1beta1.StatefulSet:
		m, sel = o, o.Spec.Selector
	case *v1alpha1.DaemonSet:
		m, sel = o, o.Spec.Selector
	case *v1beta1.DaemonSet:
		m, sel = o, o.Spec.Selector
	default:
		return "", nil, false
	}
	return m.GetNamespace(), sel, true
}

// firstPod is kubectl's choice among a workload's pods: the most active one.
func firstPod(getter genericclioptions.RESTClientGetter, ns string, selector *metav1.LabelSelector, timeout time.Duration) (*corev1.Pod, error) {
	sel, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		return nil, fmt.Errorf("selector: %w", err)
	}
	cfg, err := getter.ToRESTConfig()
	if err != nil {
		return nil, err
	}
	client, err := corev1client.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	sortBy := func(pods []*corev1.Pod) sort.Interface { return sort.Reverse(podutils.ActivePods(pods)) }
	pod, _, err := polymorphichelpers.GetFirstPod(client, ns, sel.String(), timeout, sortBy)
	return pod, err
}
