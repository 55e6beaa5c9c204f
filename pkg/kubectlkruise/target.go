package kubectlkruise

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/resource"
	"k8s.io/client-go/dynamic"
	cmdutil "k8s.io/kubectl/pkg/cmd/util"
)

// target is one workload a command acts on, as the resource builder resolved it.
type target struct {
	GVR    schema.GroupVersionResource
	Object *unstructured.Unstructured
	kind   *workloadKind
}

func (t *target) namespace() string { return t.Object.GetNamespace() }
func (t *target) name() string      { return t.Object.GetName() }

// ref names the target as kubectl does: clonesets.apps.kruise.io/name.
func (t *target) ref() string {
	return fmt.Sprintf("%s/%s", t.GVR.GroupResource().String(), t.name())
}

// selection is the part of a command's flags that picks workloads, as in kubectl:
// TYPE/NAME or TYPE NAME arguments, -f files, -l selectors.
type selection struct {
	resource.FilenameOptions
	LabelSelector string
}

func (s *selection) addFlags(cmd *cobra.Command, usage string) {
	cmdutil.AddFilenameOptionFlags(cmd, &s.FilenameOptions, usage)
	cmdutil.AddLabelSelectorFlagVar(cmd, &s.LabelSelector)
}

// resolve turns the arguments into targets, each in the plugin's WorkloadVersion. Every target
// is checked before any is returned, so an unsupported kind fails the command before
// anything is written.
func (s *selection) resolve(ctx context.Context, f cmdutil.Factory, args []string, command string) ([]*target, error) {
	if len(args) == 0 && cmdutil.IsFilenameSliceEmpty(s.Filenames, s.Kustomize) {
		return nil, fmt.Errorf("required resource not specified")
	}
	ns, enforce, err := f.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return nil, fmt.Errorf("namespace: %w", err)
	}
	infos, err := f.NewBuilder().
		Unstructured().
		NamespaceParam(ns).DefaultNamespace().
		LabelSelectorParam(s.LabelSelector).
		FilenameParam(enforce, &s.FilenameOptions).
		ResourceTypeOrNameArgs(true, args...).
		ContinueOnError().
		Latest().
		Flatten().
		Do().Infos()
	if err != nil {
		return nil, err
	}
	if len(infos) == 0 {
		return nil, fmt.Errorf("no resources found in %s namespace", ns)
	}
	kinds := make([]*workloadKind, 0, len(infos))
	for _, info := range infos {
		k, err := kindFor(info.Mapping.Resource.GroupResource(), command)
		if err != nil {
			return nil, err
		}
		kinds = append(kinds, k)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	var dyn dynamic.Interface
	targets := make([]*target, 0, len(infos))
	for i, info := range infos {
		k := kinds[i]
		u, ok := info.Object.(*unstructured.Unstructured)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected object type %T", info.Name, info.Object)
		}
		// A file or a fully qualified argument may name another version: read the
		// object again in the plugin's one version, which the server converts to.
		if info.Mapping.Resource != k.resource {
			if dyn == nil {
				if dyn, err = f.DynamicClient(); err != nil {
					return nil, fmt.Errorf("dynamic client: %w", err)
				}
			}
			if u, err = dyn.Resource(k.resource).Namespace(info.Namespace).Get(ctx, info.Name, metav1.GetOptions{}); err != nil {
				return nil, err
			}
		}
		targets = append(targets, &target{GVR: k.resource, Object: u, kind: k})
	}
	return targets, nil
}
