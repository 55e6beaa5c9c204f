package podwebhook

import (
	"fmt"
	"net/http"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// injectSidecarSets adds the sidecars of every SidecarSet in matched (which select
// pod) to the new pod, with their volumes, pull secrets, patched annotations and the
// annotations that record what was injected. SidecarSets are taken by name; a
// container name the pod (or an earlier SidecarSet) already has is not injected again,
// so the pod stays valid even if two conflicting SidecarSets got past admission.
func injectSidecarSets(pod *corev1.Pod, matched []*apps.SidecarSet, now metav1.Time) error {
	sort.Slice(matched, func(i, j int) bool { return matched[i].Name < matched[j].Name })
	appContainers := append([]corev1.Container(nil), pod.Spec.Containers...)
	taken := sets.New[string]()
	for _, c := range append(append([]corev1.Container(nil), pod.Spec.InitContainers...), pod.Spec.Containers...) {
		taken.Insert(c.Name)
	}
	var initBefore, initAfter, before, after []corev1.Container
	place := func(c corev1.Container, policy apps.PodInjectPolicyType, first, last *[]corev1.Container) {
		taken.Insert(c.Name)
		if policy == apps.BeforeAppContainerType {
			*first = append(*first, c)
		} else {
			*last = append(*last, c)
		}
	}
	working := sidecarset.WorkingHotUpgradeContainers(pod)
	hotUpgraded := false
	sidecarNames := sidecarNames(matched)
	build := func(ss *apps.SidecarSet, sc *apps.SidecarContainer) (corev1.Container, error) {
		c := sidecarContainer(sc, pod, appContainers)
		if sc.ResourcesPolicy == nil {
			return c, nil
		}
		// pod still holds only its own containers here: sidecars are placed at the end.
		r, err := sidecarset.SidecarResources(sc.ResourcesPolicy, pod, sidecarNames)
		if err != nil {
			// The pod is what the policy cannot size (no target container, a negative
			// result), so it is refused, as OpenKruise does, whatever the failurePolicy.
			return c, DenyWith(http.StatusUnprocessableEntity, metav1.StatusReasonInvalid,
				fmt.Sprintf("resourcesPolicy of sidecar %s of SidecarSet %s: %v", sc.Name, ss.Name, err))
		}
		c.Resources = r
		return c, nil
	}

	for _, ss := range matched {
		var injected []string
		anyInjected := false
		initContainers := append([]apps.SidecarContainer(nil), ss.Spec.InitContainers...)
		// OpenKruise injects init containers by name.
		sort.SliceStable(initContainers, func(i, j int) bool { return initContainers[i].Name < initContainers[j].Name })
		for i := range initContainers {
			sc := &initContainers[i]
			if taken.Has(sc.Name) {
				continue
			}
			c, err := build(ss, sc)
			if err != nil {
				return err
			}
			place(c, sc.PodInjectPolicy, &initBefore, &initAfter)
			anyInjected = true
			if sidecarset.IsNativeSidecar(&sc.Container) {
				injected = append(injected, sc.Name) // a plain init container is no sidecar: it is never upgraded
			}
		}
		for i := range ss.Spec.Containers {
			sc := &ss.Spec.Containers[i]
			// A container the pod already has is not built: building sizes it by its
			// resourcesPolicy, which may refuse the pod over a sidecar it would not inject.
			hot := sc.UpgradeStrategy.UpgradeType == apps.SidecarContainerHotUpgrade
			names := pub.HotUpgradeContainerNames(sc.Name)
			if !hot && taken.Has(sc.Name) || hot && (taken.Has(names[0]) || taken.Has(names[1])) {
				continue
			}
			c, err := build(ss, sc)
			if err != nil {
				return err
			}
			anyInjected = true
			if !hot {
				place(c, sc.PodInjectPolicy, &before, &after)
				injected = append(injected, sc.Name)
				continue
			}
			pair, versions := hotUpgradePair(c, sc.UpgradeStrategy.HotUpgradeEmptyImage)
			for _, p := range pair {
				place(p, sc.PodInjectPolicy, &before, &after)
			}
			for k, v := range versions {
				setAnnotation(pod, k, v)
			}
			working[sc.Name] = names[0]
			hotUpgraded = true
			injected = append(injected, sc.Name)
		}
		if !anyInjected {
			continue
		}
		sort.Strings(injected) // OpenKruise's sidecarList is sorted
		addVolumes(pod, ss.Spec.Volumes)
		addPullSecrets(pod, ss.Spec.ImagePullSecrets)
		sidecarset.PatchPodMetadata(pod, ss.Spec.PatchPodMetadata)
		if err := recordInjection(pod, ss, injected, now); err != nil {
			return err
		}
	}

	pod.Spec.InitContainers = concat(initBefore, pod.Spec.InitContainers, initAfter)
	pod.Spec.Containers = concat(before, pod.Spec.Containers, after)
	if hotUpgraded {
		return sidecarset.SetWorkingHotUpgradeContainers(pod, working)
	}
	return nil
}

// sidecarNames are the names of every container the matched SidecarSets inject: a
// resourcesPolicy sizes a sidecar from the pod's own containers only.
func sidecarNames(matched []*apps.SidecarSet) sets.Set[string] {
	names := sets.New[string]()
	for _, ss := range matched {
		for _, c := range ss.Spec.InitContainers {
			names.Insert(c.Name)
		}
		for _, c := range ss.Spec.Containers {
			names.Insert(c.Name)
			if c.UpgradeStrategy.UpgradeType == apps.SidecarContainerHotUpgrade {
				n := pub.HotUpgradeContainerNames(c.Name)
				names.Insert(n[0], n[1])
			}
		}
	}
	return names
}

// recordInjection writes the hash annotations and the injected list for ss, as
// OpenKruise does: per SidecarSet name, its hash (with and without images), name,
// sidecarList (the native sidecars and containers injected, sorted) and the
// ControllerRevision the sidecars came from.
func recordInjection(pod *corev1.Pod, ss *apps.SidecarSet, injected []string, now metav1.Time) error {
	hash, err := sidecarset.Hash(ss)
	if err != nil {
		return err
	}
	hashWithoutImage, err := sidecarset.HashWithoutImage(ss)
	if err != nil {
		return err
	}
	for annotation, h := range map[string]string{
		pub.SidecarSetHashAnnotation:             hash,
		pub.SidecarSetHashWithoutImageAnnotation: hashWithoutImage,
	} {
		spec := sidecarset.UpgradeSpec{UpdateTimestamp: now, Hash: h, SidecarSetName: ss.Name,
			SidecarList: injected, ControllerRevision: ss.Status.LatestRevision}
		if err := sidecarset.SetUpgradeSpec(pod, annotation, spec); err != nil {
			return fmt.Errorf("recording SidecarSet %s: %w", ss.Name, err)
		}
	}
	sidecarset.AddToInjectedList(pod, ss.Name)
	return nil
}

// addVolumes adds the SidecarSet's volumes under their pod names; a volume the pod
// already has keeps the pod's definition.
func addVolumes(pod *corev1.Pod, volumes []corev1.Volume) {
	for _, v := range volumes {
		v := *v.DeepCopy()
		v.Name = pub.PodVolumeName(v.Name)
		found := false
		for _, pv := range pod.Spec.Volumes {
			found = found || pv.Name == v.Name
		}
		if !found {
			pod.Spec.Volumes = append(pod.Spec.Volumes, v)
		}
	}
}

func addPullSecrets(pod *corev1.Pod, secrets []corev1.LocalObjectReference) {
	for _, s := range secrets {
		found := false
		for _, ps := range pod.Spec.ImagePullSecrets {
			found = found || ps.Name == s.Name
		}
		if !found {
			pod.Spec.ImagePullSecrets = append(pod.Spec.ImagePullSecrets, s)
		}
	}
}

func concat(lists ...[]corev1.Container) []corev1.Container {
	var out []corev1.Container
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func setAnnotation(pod *corev1.Pod, key, value string) {
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations[key] = value
}
