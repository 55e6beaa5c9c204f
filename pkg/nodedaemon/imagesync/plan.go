package imagesync

import (
	"sort"
	"strings"
	"time"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

// Want is one tag the NodeImage spec asks for.
type Want struct {
	// Key identifies the tag in the puller: TaskKey(Image, Tag.Tag).
	Key string
	// Image is the spec.images key (an image name without tag).
	Image string
	// Ref is what the runtime is asked to pull.
	Ref  string
	Spec *v1beta1.ImageSpec
	Tag  *v1beta1.ImageTagSpec
}

// TaskKey is the puller's key of one tag of one image. Image names may hold a ':'
// (a registry port), so keys are only ever built, never split.
func TaskKey(image, tag string) string { return image + ":" + tag }

// PullRef is the reference to pull for a tag: "name:tag", or "name@digest" when the
// tag is a digest ("sha256:...", as an ImagePullJob for image@digest writes it).
func PullRef(image, tag string) string {
	if strings.Contains(tag, ":") {
		return image + "@" + tag
	}
	return image + ":" + tag
}

// Wanted lists the tags of spec in a stable order: images by name, tags in spec order.
func Wanted(spec *v1beta1.NodeImageSpec) []Want {
	names := make([]string, 0, len(spec.Images))
	for name := range spec.Images {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []Want
	for _, name := range names {
		img := spec.Images[name]
		for i := range img.Tags {
			t := &img.Tags[i]
			out = append(out, Want{Key: TaskKey(name, t.Tag), Image: name, Ref: PullRef(name, t.Tag), Spec: &img, Tag: t})
		}
	}
	return out
}

// storedTag returns the stored status of one tag, or nil.
func storedTag(status *v1beta1.NodeImageStatus, image, tag string) *v1beta1.ImageTagStatus {
	img, ok := status.ImageStatuses[image]
	if !ok {
		return nil
	}
	for i := range img.Tags {
		if img.Tags[i].Tag == tag {
			return &img.Tags[i]
		}
	}
	return nil
}

func finished(phase v1beta1.ImagePullPhase) bool {
	return phase == v1beta1.ImagePhaseSucceeded || phase == v1beta1.ImagePhaseFailed
}

// NeedsPuller reports whether the puller must hold a task for w. A task the puller
// already has for this version stays (the puller keeps its result; dropping it before
// its result is stored would lose it). Otherwise a tag is pulled unless the stored
// status shows this version finished: after a restart, finished tags stay as they are
// and unfinished ones are pulled again.
func NeedsPuller(w Want, stored *v1beta1.NodeImageStatus, running map[string]imagepuller.Status) bool {
	if r, ok := running[w.Key]; ok && r.Version == w.Tag.Version {
		return true
	}
	st := storedTag(stored, w.Image, w.Tag.Tag)
	return st == nil || st.Version != w.Tag.Version || !finished(st.Phase)
}

// Plan returns the tags the puller must hold: turned into Tasks by TaskFor, they are
// what the puller's Sync gets.
func Plan(wants []Want, stored *v1beta1.NodeImageStatus, running map[string]imagepuller.Status) []Want {
	var out []Want
	for _, w := range wants {
		if NeedsPuller(w, stored, running) {
			out = append(out, w)
		}
	}
	return out
}

// TaskFor maps a tag to a puller Task with the given credentials. Unset pull policy
// fields keep the puller's defaults, which are OpenKruise's (600 s timeout, 3 retries).
func TaskFor(w Want, auths []*runtimeapi.AuthConfig) imagepuller.Task {
	t := imagepuller.Task{
		Image:      w.Ref,
		Version:    w.Tag.Version,
		PullPolicy: imagepuller.PullPolicy(w.Tag.ImagePullPolicy),
		Auths:      auths,
	}
	if p := w.Tag.PullPolicy; p != nil {
		if p.TimeoutSeconds != nil && *p.TimeoutSeconds > 0 {
			t.Timeout = time.Duration(*p.TimeoutSeconds) * time.Second
		}
		t.BackoffLimit = p.BackoffLimit
		if p.ActiveDeadlineSeconds != nil && *p.ActiveDeadlineSeconds > 0 {
			t.ActiveDeadline = time.Duration(*p.ActiveDeadlineSeconds) * time.Second
		}
	}
	if sc := w.Spec.SandboxConfig; sc != nil && (len(sc.Labels) > 0 || len(sc.Annotations) > 0) {
		t.SandboxConfig = &runtimeapi.PodSandboxConfig{Labels: sc.Labels, Annotations: sc.Annotations}
	}
	return t
}
