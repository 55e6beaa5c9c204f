package kubectlkruise

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	appsv1 "k8s.io/api/apps/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/printers"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
	"k8s.io/kubectl/pkg/scheme"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// migratedFromAnnotation marks a CloneSet created by migrate with the Deployment and
// its replicas, so an interrupted migration can be run again and go on.
const migratedFromAnnotation = "kruise-native.io/migrated-from"

var deployments = schema.GroupResource{Group: "apps", Resource: "deployments"}

// MigrateOptions are the flags of `migrate`.
type MigrateOptions struct {
	selection
	CloneSetName   string
	MaxUnavailable string
	MaxSurge       string
	Timeout        time.Duration
	Interval       time.Duration
	PrintFlags     *genericclioptions.PrintFlags
	genericiooptions.IOStreams
}

// NewCmdMigrate is `kubectl kruise migrate deployment/NAME`.
func NewCmdMigrate(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := &MigrateOptions{
		PrintFlags: genericclioptions.NewPrintFlags("created").WithTypeSetter(scheme.Scheme),
		IOStreams:  streams,
		Interval:   500 * time.Millisecond,
	}
	cmd := &cobra.Command{
		Use:   "migrate deployment/NAME [--cloneset-name=NAME]",
		Short: "Move a Deployment's pods to a CloneSet with the same pod template",
		Long: "Create a CloneSet with the Deployment's selector and pod template, then scale the\n" +
			"CloneSet up as the Deployment goes down, never leaving more than the Deployment's\n" +
			"maxUnavailable pods unavailable (and never more than maxSurge extra pods). It ends\n" +
			"when the Deployment has no pods and every CloneSet pod is available; the Deployment\n" +
			"is left at 0 replicas. Run again after an interruption to go on.\n" +
			"--dry-run prints the CloneSet and the planned steps and changes nothing.",
		Example: "  kubectl kruise migrate deployment/web --dry-run=client\n" +
			"  kubectl kruise migrate deployment/web --cloneset-name=web-cs --timeout=10m",
		Run: func(cmd *cobra.Command, args []string) {
			dryRun, err := cmdutil.GetDryRunStrategy(cmd)
			cmdutil.CheckErr(err)
			cmdutil.CheckErr(o.Run(cmd.Context(), f, args, dryRun))
		},
	}
	o.selection.addFlags(cmd, "identifying the Deployment.")
	cmd.Flags().StringVar(&o.CloneSetName, "cloneset-name", "", "Name of the CloneSet (default: the Deployment's name).")
	cmd.Flags().StringVar(&o.MaxUnavailable, "max-unavailable", "", "Most pods unavailable at once, a number or a percentage (default: the Deployment's maxUnavailable).")
	cmd.Flags().StringVar(&o.MaxSurge, "max-surge", "", "Most pods above the replicas at once, a number or a percentage (default: the Deployment's maxSurge).")
	cmd.Flags().DurationVar(&o.Timeout, "timeout", 10*time.Minute, "How long to wait for the migration to finish.")
	cmdutil.AddDryRunFlag(cmd)
	o.PrintFlags.AddFlags(cmd)
	return cmd
}

// Run migrates the one resolved Deployment.
func (o *MigrateOptions) Run(ctx context.Context, f cmdutil.Factory, args []string, dryRun cmdutil.DryRunStrategy) error {
	dep, err := o.resolveDeployment(f, args)
	if err != nil {
		return err
	}
	clients, err := clientsFrom(f)
	if err != nil {
		return err
	}
	printer, err := cmdutil.PrintFlagsWithDryRunStrategy(o.PrintFlags, dryRun).ToPrinter()
	if err != nil {
		return err
	}
	m := &migration{clients: clients, dep: dep, out: o.Out, interval: o.Interval}
	if err := m.limits(o.MaxUnavailable, o.MaxSurge); err != nil {
		return err
	}
	name := o.CloneSetName
	if name == "" {
		name = dep.Name
	}
	if err := m.prepare(ctx, name, dryRun, printer); err != nil {
		return err
	}
	if dryRun != cmdutil.DryRunNone {
		for _, st := range simulateMigration(m.initialState()) {
			fmt.Fprintf(o.Out, "would scale deployment/%s to %d and cloneset/%s to %d\n", dep.Name, st.DeploymentReplicas, name, st.CloneSetReplicas)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	return m.run(ctx)
}

func (o *MigrateOptions) resolveDeployment(f cmdutil.Factory, args []string) (*appsv1.Deployment, error) {
	if len(args) == 0 && cmdutil.IsFilenameSliceEmpty(o.Filenames, o.Kustomize) {
		return nil, fmt.Errorf("required resource not specified")
	}
	ns, enforce, err := f.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return nil, fmt.Errorf("namespace: %w", err)
	}
	infos, err := f.NewBuilder().Unstructured().
		NamespaceParam(ns).DefaultNamespace().
		LabelSelectorParam(o.LabelSelector).
		FilenameParam(enforce, &o.FilenameOptions).
		ResourceTypeOrNameArgs(true, args...).
		Latest().Flatten().Do().Infos()
	if err != nil {
		return nil, err
	}
	if len(infos) != 1 {
		return nil, fmt.Errorf("migrate acts on one Deployment at a time - %d resources were found", len(infos))
	}
	if gr := infos[0].Mapping.Resource.GroupResource(); gr != deployments {
		return nil, fmt.Errorf("migrate is not supported for %q: only %s", gr.String(), deployments.String())
	}
	dep := &appsv1.Deployment{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(infos[0].Object.(*unstructured.Unstructured).Object, dep); err != nil {
		return nil, fmt.Errorf("deployment %s: %w", infos[0].Name, err)
	}
	return dep, nil
}

// migration is one run of migrate against the cluster.
type migration struct {
	clients  *Clients
	dep      *appsv1.Deployment
	cs       *v1alpha1.CloneSet
	total    int32
	maxUnav  int32
	maxSurge int32
	out      io.Writer
	interval time.Duration
}

// limits resolves maxUnavailable and maxSurge against the replicas as the Deployment
// controller does (unavailable rounds down, surge up, and both zero means one may be
// unavailable); a Recreate Deployment may lose all its pods at once.
func (m *migration) limits(maxUnavailable, maxSurge string) error {
	m.total = ptr.Deref(m.dep.Spec.Replicas, 1)
	unav, surge := intstr.FromString("25%"), intstr.FromString("25%")
	if ru := m.dep.Spec.Strategy.RollingUpdate; ru != nil {
		if ru.MaxUnavailable != nil {
			unav = *ru.MaxUnavailable
		}
		if ru.MaxSurge != nil {
			surge = *ru.MaxSurge
		}
	}
	if m.dep.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType {
		unav, surge = intstr.FromString("100%"), intstr.FromInt32(0)
	}
	if maxUnavailable != "" {
		unav = intstr.Parse(maxUnavailable)
	}
	if maxSurge != "" {
		surge = intstr.Parse(maxSurge)
	}
	u, err := intstr.GetScaledValueFromIntOrPercent(&unav, int(m.total), false)
	if err != nil {
		return fmt.Errorf("--max-unavailable: %w", err)
	}
	s, err := intstr.GetScaledValueFromIntOrPercent(&surge, int(m.total), true)
	if err != nil {
		return fmt.Errorf("--max-surge: %w", err)
	}
	if u < 0 || s < 0 {
		return fmt.Errorf("--max-unavailable and --max-surge must not be negative")
	}
	if u == 0 && s == 0 {
		u = 1
	}
	m.maxUnav, m.maxSurge = int32(u), int32(s)
	return nil
}

// prepare checks the Deployment is settled and creates the CloneSet (or finds the one
// an interrupted run created); a dry run prints it instead.
func (m *migration) prepare(ctx context.Context, name string, dryRun cmdutil.DryRunStrategy, printer printers.ResourcePrinter) error {
	d := m.dep
	if d.Status.ObservedGeneration < d.Generation || d.Status.UpdatedReplicas != d.Status.Replicas {
		return fmt.Errorf("deployment %q is rolling out: wait for `kubectl rollout status deployment/%s` before migrating it", d.Name, d.Name)
	}
	want := cloneSetFor(d, name, m.total)
	existing, err := m.clients.Kruise.AppsV1alpha1().CloneSets(d.Namespace).Get(ctx, name, metav1.GetOptions{})
	switch {
	case err == nil:
		from := existing.Annotations[migratedFromAnnotation]
		if !sameDeployment(from, d.Name) {
			return fmt.Errorf("cloneset %q already exists and was not created by migrating deployment %q: choose another --cloneset-name", name, d.Name)
		}
		if !apiequality.Semantic.DeepEqual(existing.Spec.Selector, want.Spec.Selector) {
			return fmt.Errorf("cloneset %q has another selector than deployment %q", name, d.Name)
		}
		// Go on with the replicas recorded when the migration began.
		if n, err := strconv.Atoi(from[len("deployment/"+d.Name+"/"):]); err == nil {
			m.total = int32(n)
		}
		m.cs = existing
		if dryRun != cmdutil.DryRunNone {
			return printer.PrintObj(withKind(existing), m.out)
		}
		fmt.Fprintf(m.out, "cloneset.apps.kruise.io/%s exists: going on with the migration of %d pods\n", name, m.total)
		return nil
	case !apierrors.IsNotFound(err):
		return fmt.Errorf("reading cloneset %q: %w", name, err)
	}
	if dryRun == cmdutil.DryRunClient {
		m.cs = want
		return printer.PrintObj(withKind(want), m.out)
	}
	opts := metav1.CreateOptions{FieldManager: fieldManager}
	if dryRun == cmdutil.DryRunServer {
		opts.DryRun = []string{metav1.DryRunAll}
	}
	created, err := m.clients.Kruise.AppsV1alpha1().CloneSets(d.Namespace).Create(ctx, want, opts)
	if err != nil {
		return err
	}
	m.cs = created
	return printer.PrintObj(withKind(created), m.out)
}

func sameDeployment(annotation, name string) bool {
	prefix := "deployment/" + name + "/"
	return len(annotation) > len(prefix) && annotation[:len(prefix)] == prefix
}

// cloneSetFor is the CloneSet that takes over d's pods: same selector, template, and
// readiness rules, starting at zero replicas.
func cloneSetFor(d *appsv1.Deployment, name string, total int32) *v1alpha1.CloneSet {
	return &v1alpha1.CloneSet{
		TypeMeta: metav1.TypeMeta{APIVersion: v1alpha1.SchemeGroupVersion.String(), Kind: "CloneSet"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: d.Namespace, Labels: d.Labels,
			Annotations: map[string]string{migratedFromAnnotation: fmt.Sprintf("deployment/%s/%d", d.Name, total)},
		},
		Spec: v1alpha1.CloneSetSpec{
			Replicas:             ptr.To[int32](0),
			Selector:             d.Spec.Selector.DeepCopy(),
			Template:             *d.Spec.Template.DeepCopy(),
			MinReadySeconds:      d.Spec.MinReadySeconds,
			RevisionHistoryLimit: d.Spec.RevisionHistoryLimit,
		},
	}
}

func withKind(cs *v1alpha1.CloneSet) *v1alpha1.CloneSet {
	out := cs.DeepCopy()
	out.SetGroupVersionKind(v1alpha1.SchemeGroupVersion.WithKind("CloneSet"))
	return out
}

func (m *migration) initialState() migrationState {
	cs := int32(0)
	if m.cs != nil {
		cs = ptr.Deref(m.cs.Spec.Replicas, 0)
	}
	d := ptr.Deref(m.dep.Spec.Replicas, 1)
	return migrationState{
		Total: m.total, MaxUnavailable: m.maxUnav, MaxSurge: m.maxSurge,
		Deployment: migrationSide{Replicas: d, Pods: d, Available: d, Observed: true},
		CloneSet:   migrationSide{Replicas: cs, Pods: cs, Available: cs, Observed: true},
	}
}

// observe reads both workloads into the plan's input.
func (m *migration) observe(ctx context.Context) (migrationState, error) {
	d, err := m.clients.Kube.AppsV1().Deployments(m.dep.Namespace).Get(ctx, m.dep.Name, metav1.GetOptions{})
	if err != nil {
		return migrationState{}, fmt.Errorf("reading deployment %q: %w", m.dep.Name, err)
	}
	cs, err := m.clients.Kruise.AppsV1alpha1().CloneSets(m.cs.Namespace).Get(ctx, m.cs.Name, metav1.GetOptions{})
	if err != nil {
		return migrationState{}, fmt.Errorf("reading cloneset %q: %w", m.cs.Name, err)
	}
	return migrationState{
		Total: m.total, MaxUnavailable: m.maxUnav, MaxSurge: m.maxSurge,
		Deployment: migrationSide{
			Replicas: ptr.Deref(d.Spec.Replicas, 1), Pods: d.Status.Replicas, Available: d.Status.AvailableReplicas,
			Observed: d.Status.ObservedGeneration >= d.Generation,
		},
		CloneSet: migrationSide{
			Replicas: ptr.Deref(cs.Spec.Replicas, 1), Pods: cs.Status.Replicas, Available: cs.Status.AvailableReplicas,
			Observed: cs.Status.ObservedGeneration >= cs.Generation,
		},
	}, nil
}

// run observes, plans and writes until the plan is done or the context ends.
func (m *migration) run(ctx context.Context) error {
	var lastWait string
	var last migrationState
	err := wait.PollUntilContextCancel(ctx, m.interval, true, func(ctx context.Context) (bool, error) {
		s, err := m.observe(ctx)
		if err != nil {
			return false, err
		}
		last = s
		step := planMigration(s)
		if step.Done {
			return true, nil
		}
		if step.Wait != "" {
			if step.Wait != lastWait {
				fmt.Fprintf(m.out, "Waiting for %s...\n", step.Wait)
				lastWait = step.Wait
			}
			return false, nil
		}
		lastWait = ""
		// The CloneSet grows before the Deployment shrinks: a failure between the two
		// writes leaves extra pods, never missing ones.
		if step.CloneSetReplicas != s.CloneSet.Replicas {
			if err := m.scale(ctx, true, step.CloneSetReplicas); err != nil {
				return false, err
			}
		}
		if step.DeploymentReplicas != s.Deployment.Replicas {
			if err := m.scale(ctx, false, step.DeploymentReplicas); err != nil {
				return false, err
			}
		}
		fmt.Fprintf(m.out, "deployment/%s scaled to %d, cloneset/%s scaled to %d\n", m.dep.Name, step.DeploymentReplicas, m.cs.Name, step.CloneSetReplicas)
		return false, nil
	})
	if err != nil {
		if wait.Interrupted(err) {
			return fmt.Errorf("timed out migrating deployment %q: %d of %d pods moved, %d available in the CloneSet (run the command again to go on)",
				m.dep.Name, last.CloneSet.Replicas, m.total, last.CloneSet.Available)
		}
		return err
	}
	fmt.Fprintf(m.out, "deployment/%s migrated to cloneset.apps.kruise.io/%s: %d pods available; the Deployment is at 0 replicas and can be deleted\n",
		m.dep.Name, m.cs.Name, m.total)
	return nil
}

// scale sets spec.replicas of the CloneSet or the Deployment with a merge patch.
func (m *migration) scale(ctx context.Context, cloneSet bool, replicas int32) error {
	patch := []byte(fmt.Sprintf(`{"spec":{"replicas":%d}}`, replicas))
	opts := metav1.PatchOptions{FieldManager: fieldManager}
	var err error
	if cloneSet {
		_, err = m.clients.Kruise.AppsV1alpha1().CloneSets(m.cs.Namespace).Patch(ctx, m.cs.Name, types.MergePatchType, patch, opts)
	} else {
		_, err = m.clients.Kube.AppsV1().Deployments(m.dep.Namespace).Patch(ctx, m.dep.Name, types.MergePatchType, patch, opts)
	}
	if err != nil {
		return fmt.Errorf("scaling to %d: %w", replicas, err)
	}
	return nil
}
