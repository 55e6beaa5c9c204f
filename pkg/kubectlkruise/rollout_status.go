package kubectlkruise

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

// StatusOptions are the flags of `rollout status`.
type StatusOptions struct {
	selection
	Watch   bool
	Timeout time.Duration
	genericiooptions.IOStreams
}

func newCmdStatus(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := &StatusOptions{Watch: true, IOStreams: streams}
	cmd := &cobra.Command{
		Use:   "status (TYPE NAME | TYPE/NAME) [flags]",
		Short: "Show the status of the rollout",
		Long: "Show the status of the rollout of a CloneSet, Advanced StatefulSet or Advanced DaemonSet.\n\n" +
			"By default it watches until the rollout finishes. Pods held back by a partition are\n" +
			"expected to stay on the old revision: once every other pod is updated and available,\n" +
			"the partition has rolled out and the command succeeds.",
		Example: "  kubectl kruise rollout status cloneset/sample --timeout=2m",
		Run: func(cmd *cobra.Command, args []string) {
			cmdutil.CheckErr(o.Run(cmd.Context(), f, args))
		},
	}
	o.selection.addFlags(cmd, "identifying the resource to get status from.")
	cmd.Flags().BoolVarP(&o.Watch, "watch", "w", o.Watch, "Watch the status of the rollout until it's done.")
	cmd.Flags().DurationVar(&o.Timeout, "timeout", 0, "The length of time to wait before ending watch, zero means never. Any other values should contain a corresponding time unit (e.g. 1s, 2m, 3h).")
	return cmd
}

// Run resolves the single workload and reports its rollout.
func (o *StatusOptions) Run(ctx context.Context, f cmdutil.Factory, args []string) error {
	targets, err := o.resolve(ctx, f, args, "rollout status")
	if err != nil {
		return err
	}
	if len(targets) != 1 {
		return fmt.Errorf("rollout status is only supported on individual resources and resource collections - %d resources were found", len(targets))
	}
	dyn, err := f.DynamicClient()
	if err != nil {
		return fmt.Errorf("dynamic client: %w", err)
	}
	return rolloutStatus(ctx, dyn, targets[0], o.Watch, o.Timeout, o.Out)
}

// rolloutStatus prints the rollout's progress; with watch it follows the object's
// watch events (no polling) until the rollout is done or the timeout passes.
func rolloutStatus(ctx context.Context, dyn dynamic.Interface, t *target, follow bool, timeout time.Duration, out io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if !follow {
		p, err := t.kind.rolloutProgress(t.Object)
		if err != nil {
			return err
		}
		_, err = fmt.Fprint(out, p.message)
		return err
	}
	client := dyn.Resource(t.GVR).Namespace(t.namespace())
	byName := fields.OneTermEqualSelector("metadata.name", t.name()).String()
	// Wrapped so the reflector asks the client whether it can stream its initial list
	// (kube-apiserver can; client-go's fakes cannot and fall back to list + watch).
	lw := cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			opts.FieldSelector = byName
			return client.List(ctx, opts)
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.FieldSelector = byName
			return client.Watch(ctx, opts)
		},
	}, dyn)
	ctx, cancel := watchtools.ContextWithOptionalTimeout(ctx, timeout)
	defer cancel()
	last := ""
	_, err := watchtools.UntilWithSync(ctx, lw, &unstructured.Unstructured{}, nil, func(e watch.Event) (bool, error) {
		switch e.Type {
		case watch.Deleted:
			return false, apierrors.NewNotFound(t.GVR.GroupResource(), t.name())
		case watch.Added, watch.Modified:
			u, ok := e.Object.(*unstructured.Unstructured)
			if !ok || u.GetName() != t.name() {
				return false, nil
			}
			p, err := t.kind.rolloutProgress(u)
			if err != nil {
				return false, err
			}
			// Print each distinct line once, as kubectl does, not every status write.
			if p.message != last {
				last = p.message
				if _, err := fmt.Fprint(out, p.message); err != nil {
					return false, err
				}
			}
			return p.done, nil
		}
		return false, nil
	})
	if wait.Interrupted(err) || errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("timed out waiting for the rollout of %s to finish", t.ref())
	}
	return err
}
