package sidecarset

import (
	"encoding/json"
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/pub"
	"github.com/kruise-native/kruise-native/pkg/controllers/internal/inplaceupdate"
	"github.com/kruise-native/kruise-native/pkg/podutil"
	"github.com/kruise-native/kruise-native/pkg/sidecarset"
)

// target is what a SidecarSet's pods should run now.
type target struct {
	ss               *apps.SidecarSet
	hash             string
	hashWithoutImage string
	revision         string
}

// podStatus is where one selected pod stands against the target.
type podStatus struct {
	pod *corev1.Pod
	// updated: the pod records the target's hash (its upgrade was at least started).
	updated bool
	// inPlace: only images differ from the target, so an in-place upgrade can get it there.
	inPlace bool
	// consistent: the containers run what the pod records and no hot-upgrade switch-over
	// is pending; otherwise an upgrade is under way and the pod counts as unavailable.
	consistent bool
	ready      bool
	// canary: updateStrategy.selector (if any) selects the pod.
	canary bool
	// sidecars are the SidecarSet's sidecars this pod got at injection.
	sidecars map[string]bool
}

func classify(pod *corev1.Pod, t *target, canary labels.Selector) podStatus {
	spec := sidecarset.UpgradeSpecs(pod, pub.SidecarSetHashAnnotation)[t.ss.Name]
	withoutImage := sidecarset.UpgradeSpecs(pod, pub.SidecarSetHashWithoutImageAnnotation)[t.ss.Name]
	s := podStatus{
		pod:      pod,
		updated:  spec.Hash == t.hash,
		ready:    podReady(pod),
		canary:   canary == nil || canary.Matches(labels.Set(pod.Labels)),
		sidecars: map[string]bool{},
	}
	for _, n := range spec.SidecarList {
		s.sidecars[n] = true
	}
	s.inPlace = s.updated || withoutImage.Hash == t.hashWithoutImage && nativeSidecarsMatch(pod, t.ss, s.sidecars)
	s.consistent = upgradeFinished(pod, t.ss.Name) && !switchOverPending(pod, t.ss, s.sidecars)
	return s
}

// nativeSidecarsMatch: each native sidecar (init container with restartPolicy
// Always) the SidecarSet injected into the pod runs the SidecarSet's image. Only
// spec.containers are upgraded in place: a pod whose native sidecar changed needs
// recreating to get the new one.
func nativeSidecarsMatch(pod *corev1.Pod, ss *apps.SidecarSet, sidecars map[string]bool) bool {
	for i := range ss.Spec.InitContainers {
		sc := &ss.Spec.InitContainers[i]
		if !sidecars[sc.Name] || !sidecarset.IsNativeSidecar(&sc.Container) {
			continue
		}
		for _, c := range pod.Spec.InitContainers {
			if c.Name == sc.Name && c.Image != sc.Image {
				return false
			}
		}
	}
	return true
}

// upgradeFinished: every container the SidecarSet's last upgrade of the pod changed
// runs its new image and is ready.
func upgradeFinished(pod *corev1.Pod, name string) bool {
	state, ok := upgradeStates(pod)[name]
	if !ok {
		return true
	}
	if !inplaceupdate.ImagesSwitched(pod, state.LastContainerStatuses) {
		return false
	}
	for c := range state.LastContainerStatuses {
		if !containerReady(pod, c) {
			return false
		}
	}
	return true
}

// switchOverPending: a hot-upgraded sidecar's idle container does not run the empty
// image, i.e. it carries an upgrade that has not taken over yet.
func switchOverPending(pod *corev1.Pod, ss *apps.SidecarSet, sidecars map[string]bool) bool {
	working := sidecarset.WorkingHotUpgradeContainers(pod)
	for i := range ss.Spec.Containers {
		sc := &ss.Spec.Containers[i]
		if sc.UpgradeStrategy.UpgradeType != apps.SidecarContainerHotUpgrade || !sidecars[sc.Name] {
			continue
		}
		_, idle := hotPair(sc.Name, working)
		if c := container(pod, idle); c != nil && c.Image != sc.UpgradeStrategy.HotUpgradeEmptyImage {
			return true
		}
	}
	return false
}

// hotPair returns the working and the idle container of a hot-upgraded sidecar.
func hotPair(sidecar string, working map[string]string) (string, string) {
	names := pub.HotUpgradeContainerNames(sidecar)
	if working[sidecar] == names[1] {
		return names[1], names[0]
	}
	return names[0], names[1]
}

// upgrade returns pod moved to the target in place, in ONE patch's worth of changes:
// each cold sidecar gets its new image; each hot sidecar's idle container gets it (it
// takes over once ready, see switchOver); the hash annotations, the hot-upgrade
// versions and the upgrade state (what ran before, to tell when the runtime switched).
func upgrade(pod *corev1.Pod, t *target, sidecars map[string]bool, now metav1.Time) (*corev1.Pod, error) {
	out := pod.DeepCopy()
	last := map[string]inplaceupdate.ContainerStatus{}
	setImage := func(name, image string) {
		c := container(out, name)
		if c == nil || c.Image == image {
			return
		}
		c.Image = image
		last[name] = inplaceupdate.ContainerStatus{ImageID: imageID(pod, name)}
	}
	working := sidecarset.WorkingHotUpgradeContainers(out)
	for i := range t.ss.Spec.Containers {
		sc := &t.ss.Spec.Containers[i]
		if !sidecars[sc.Name] {
			continue // not injected into this pod: whatever runs under the name is not ours
		}
		if sc.UpgradeStrategy.UpgradeType != apps.SidecarContainerHotUpgrade {
			setImage(sc.Name, sc.Image)
			continue
		}
		work, idle := hotPair(sc.Name, working)
		if c := container(out, work); c == nil || c.Image == sc.Image {
			continue
		}
		setImage(idle, sc.Image)
		version := nextVersion(out, sc.Name)
		setAnnotation(out, pub.SidecarSetVersionAnnotation(idle), version)
		setAnnotation(out, pub.SidecarSetVersionAltAnnotation(idle), out.Annotations[pub.SidecarSetVersionAnnotation(work)])
		setAnnotation(out, pub.SidecarSetVersionAltAnnotation(work), version)
	}
	// The SidecarSet's current annotations go with its upgrade, as with OpenKruise: a
	// changed Overwrite or MergePatchJson patch reaches the pods already injected.
	sidecarset.PatchPodMetadata(out, t.ss.Spec.PatchPodMetadata)
	if err := recordTarget(out, t, now); err != nil {
		return nil, err
	}
	state := inplaceupdate.State{Revision: t.revision, UpdateTimestamp: now, LastContainerStatuses: last, UpdateImages: len(last) > 0}
	if err := setUpgradeState(out, t.ss.Name, state); err != nil {
		return nil, err
	}
	return out, nil
}

// switchOver returns pod with every hot-upgraded sidecar whose idle container runs the
// new image and is ready made the working one, and the old working one reset to the
// empty image; nil when no pair is ready to switch.
func switchOver(pod *corev1.Pod, t *target, sidecars map[string]bool, now metav1.Time) (*corev1.Pod, error) {
	if !upgradeFinished(pod, t.ss.Name) {
		return nil, nil // the idle containers have not switched to their new image yet
	}
	out := pod.DeepCopy()
	working := sidecarset.WorkingHotUpgradeContainers(out)
	last := map[string]inplaceupdate.ContainerStatus{}
	for i := range t.ss.Spec.Containers {
		sc := &t.ss.Spec.Containers[i]
		if sc.UpgradeStrategy.UpgradeType != apps.SidecarContainerHotUpgrade || !sidecars[sc.Name] {
			continue
		}
		work, idle := hotPair(sc.Name, working)
		ic, wc := container(out, idle), container(out, work)
		empty := sc.UpgradeStrategy.HotUpgradeEmptyImage
		if ic == nil || wc == nil || ic.Image == empty || !containerReady(pod, idle) {
			continue
		}
		working[sc.Name] = idle
		last[work] = inplaceupdate.ContainerStatus{ImageID: imageID(pod, work)}
		wc.Image = empty
	}
	if len(last) == 0 {
		return nil, nil
	}
	if err := sidecarset.SetWorkingHotUpgradeContainers(out, working); err != nil {
		return nil, err
	}
	state := inplaceupdate.State{Revision: t.revision, UpdateTimestamp: now, LastContainerStatuses: last, UpdateImages: true}
	if err := setUpgradeState(out, t.ss.Name, state); err != nil {
		return nil, err
	}
	return out, nil
}

// recordTarget writes the target's hashes (and revision) into the pod's hash annotations.
func recordTarget(pod *corev1.Pod, t *target, now metav1.Time) error {
	for annotation, hash := range map[string]string{
		pub.SidecarSetHashAnnotation:             t.hash,
		pub.SidecarSetHashWithoutImageAnnotation: t.hashWithoutImage,
	} {
		spec := sidecarset.UpgradeSpecs(pod, annotation)[t.ss.Name]
		spec.SidecarSetName, spec.Hash, spec.UpdateTimestamp, spec.ControllerRevision = t.ss.Name, hash, now, t.revision
		if err := sidecarset.SetUpgradeSpec(pod, annotation, spec); err != nil {
			return err
		}
	}
	return nil
}

// nextVersion is the version number a hot-upgraded sidecar's next image gets: one more
// than either container of the pair has had.
func nextVersion(pod *corev1.Pod, sidecar string) string {
	highest := 0
	for _, n := range pub.HotUpgradeContainerNames(sidecar) {
		if v, err := strconv.Atoi(pod.Annotations[pub.SidecarSetVersionAnnotation(n)]); err == nil && v > highest {
			highest = v
		}
	}
	return strconv.Itoa(highest + 1)
}

// upgradeStates reads kruise.io/sidecarset-inplace-update-state: per SidecarSet, the
// state of its last in-place upgrade of the pod (OpenKruise's format).
func upgradeStates(pod *corev1.Pod) map[string]inplaceupdate.State {
	out := map[string]inplaceupdate.State{}
	if v, ok := pod.Annotations[pub.SidecarSetInPlaceUpdateStateKey]; ok {
		if err := json.Unmarshal([]byte(v), &out); err != nil {
			return map[string]inplaceupdate.State{}
		}
	}
	return out
}

func setUpgradeState(pod *corev1.Pod, name string, state inplaceupdate.State) error {
	states := upgradeStates(pod)
	states[name] = state
	data, err := json.Marshal(states)
	if err != nil {
		return fmt.Errorf("encoding %s: %w", pub.SidecarSetInPlaceUpdateStateKey, err)
	}
	setAnnotation(pod, pub.SidecarSetInPlaceUpdateStateKey, string(data))
	return nil
}

func setAnnotation(pod *corev1.Pod, key, value string) {
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations[key] = value
}

func container(pod *corev1.Pod, name string) *corev1.Container { return podutil.Container(pod, name) }

func containerStatus(pod *corev1.Pod, name string) *corev1.ContainerStatus {
	return podutil.ContainerStatus(pod, name)
}

func imageID(pod *corev1.Pod, name string) string {
	if s := containerStatus(pod, name); s != nil {
		return s.ImageID
	}
	return ""
}

func containerReady(pod *corev1.Pod, name string) bool {
	s := containerStatus(pod, name)
	return s != nil && s.Ready
}

func podReady(pod *corev1.Pod) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
