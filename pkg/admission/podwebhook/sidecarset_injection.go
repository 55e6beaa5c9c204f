package podwebhook

import (
	"context"
	"fmt"

	admissionv1 "k8s.io/api/admission/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// sidecarSetInjector injects the sidecars of the SidecarSets that select a new pod.
type sidecarSetInjector struct {
	cfg    Config
	scheme *runtime.Scheme
}

func sidecarSetInjection(cfg Config) Handler {
	s := runtime.NewScheme()
	// Both are compiled in: registering them cannot fail at run time.
	utilruntime.Must(apps.AddToScheme(s))
	utilruntime.Must(v1beta1.AddToScheme(s))
	i := &sidecarSetInjector{cfg: cfg, scheme: s}
	return Handler{Name: "sidecarset-injection", Rules: podCreates, Synced: cfg.Synced, Mutate: i.mutate,
		Applies: func(*admissionv1.AdmissionRequest) (bool, error) {
			// Without any SidecarSet there is nothing to inject.
			sets, err := cfg.SidecarSets()
			return len(sets) > 0, err
		},
		CallClauses: func() (CallClauses, error) {
			sets, err := cfg.SidecarSets()
			if err != nil {
				return nil, fmt.Errorf("listing SidecarSets: %w", err)
			}
			out := CallClauses{}
			for _, ss := range sets {
				if key, expr, ok := sidecarSetClause(ss, ss.Spec.Namespace, ss.Spec.Selector, ss.Spec.InjectionStrategy.Paused); ok {
					out[key] = expr
				}
			}
			return out, nil
		}}
}

func (i *sidecarSetInjector) mutate(ctx context.Context, req *admissionv1.AdmissionRequest, pod *corev1.Pod) error {
	matched, err := i.matchingSidecarSets(ctx, pod)
	if err != nil || len(matched) == 0 {
		return err
	}
	if err := injectSidecarSets(pod, matched, metav1.NewTime(i.cfg.Now())); err != nil {
		return err
	}
	names := make([]string, 0, len(matched))
	for _, ss := range matched {
		names = append(names, ss.Name)
	}
	klog.FromContext(ctx).V(2).Info("Injected SidecarSets", "pod", klog.KRef(req.Namespace, pod.Name), "sidecarSets", names)
	return nil
}

// matchingSidecarSets are the SidecarSets that inject into pod (injection not paused),
// as hub objects.
func (i *sidecarSetInjector) matchingSidecarSets(ctx context.Context, pod *corev1.Pod) ([]*apps.SidecarSet, error) {
	all, err := i.cfg.SidecarSets()
	if err != nil {
		return nil, fmt.Errorf("listing SidecarSets: %w", err)
	}
	nsLabels := func(ns string) (labels.Set, error) { return i.cfg.NamespaceLabels(ctx, ns) }
	var out []*apps.SidecarSet
	for _, v := range all {
		if v.Spec.InjectionStrategy.Paused || v.DeletionTimestamp != nil {
			continue
		}
		ss := &apps.SidecarSet{}
		if err := i.scheme.Convert(v, ss, nil); err != nil {
			return nil, fmt.Errorf("converting SidecarSet %s: %w", v.Name, err)
		}
		ok, err := sidecarset.Matches(ss, pod, nsLabels)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if ss, err = i.pinned(ctx, ss, pod); err != nil {
			return nil, err
		}
		out = append(out, ss)
	}
	return out, nil
}

// pinned returns ss as it injects into pod: with injectionStrategy.revision, what that
// revision recorded, except for a pod the update strategy's canary selector picks
// while the rollout runs, which gets the latest sidecars (OpenKruise's rule for both
// policies; Partial's share of latest injections by partition is not implemented). A
// pinned revision that cannot be read is an error, so the failurePolicy decides rather
// than a silent injection of the latest version.
func (i *sidecarSetInjector) pinned(ctx context.Context, ss *apps.SidecarSet, pod *corev1.Pod) (*apps.SidecarSet, error) {
	if ss.Spec.InjectionStrategy.Revision == nil {
		return ss, nil
	}
	if s := &ss.Spec.UpdateStrategy; s.Selector != nil && !s.Paused {
		canary, err := metav1.LabelSelectorAsSelector(s.Selector)
		if err != nil {
			return nil, fmt.Errorf("updateStrategy.selector of SidecarSet %s: %w", ss.Name, err)
		}
		if canary.Matches(labels.Set(pod.Labels)) {
			return ss, nil
		}
	}
	if i.cfg.PinnedRevision == nil {
		return nil, fmt.Errorf("SidecarSet %s pins a revision, and no revision reader is configured", ss.Name)
	}
	rev, err := i.cfg.PinnedRevision(ctx, ss)
	if err != nil {
		return nil, fmt.Errorf("the revision SidecarSet %s injects: %w", ss.Name, err)
	}
	return sidecarset.WithRevision(ss, rev)
}
