package imagepulljob

import (
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1alpha1"
)

// stateOn reads where a node stands for the job from its NodeImage.
func stateOn(ni *v1alpha1.NodeImage, job *v1alpha1.ImagePullJob, name, tag string) NodeState {
	s := NodeState{Node: ni.Name}
	spec := findTag(ni.Spec.Images[name].Tags, tag)
	if spec == nil || !ownedBy(spec.OwnerReferences, job.UID) {
		return s
	}
	s.Progress = Pulling
	for _, st := range ni.Status.ImageStatuses[name].Tags {
		if st.Tag != tag || st.Version != spec.Version {
			continue
		}
		switch st.Phase {
		case v1alpha1.ImagePhaseSucceeded:
			s.Progress = Succeeded
		case v1alpha1.ImagePhaseFailed:
			s.Progress, s.Message = Failed, st.Message
		}
		if st.CompletionTime != nil {
			s.FinishedAt = st.CompletionTime.Time
		}
	}
	return s
}

func findTag(tags []v1alpha1.ImageTagSpec, tag string) *v1alpha1.ImageTagSpec {
	for i := range tags {
		if tags[i].Tag == tag {
			return &tags[i]
		}
	}
	return nil
}

// withTag returns ni's spec listing the job's tag: a new tag, or the job added to the
// owners of a tag another job or a user already asked for. With pullPolicy Always a
// tag pulled before is pulled again (its version moves on). It returns nil when the
// spec already has it all.
func withTag(ni *v1alpha1.NodeImage, job *v1alpha1.ImagePullJob, name, tag string, now time.Time) *v1alpha1.NodeImageSpec {
	spec := ni.Spec.DeepCopy()
	if spec.Images == nil {
		spec.Images = map[string]v1alpha1.ImageSpec{}
	}
	img := spec.Images[name]
	changed := false
	for _, s := range job.Spec.PullSecrets {
		ref := v1alpha1.ReferenceObject{Namespace: job.Namespace, Name: s}
		if !slices.Contains(img.PullSecrets, ref) {
			img.PullSecrets = append(img.PullSecrets, ref)
			changed = true
		}
	}
	if job.Spec.SandboxConfig != nil && img.SandboxConfig == nil {
		img.SandboxConfig = job.Spec.SandboxConfig.DeepCopy()
		changed = true
	}
	if t := findTag(img.Tags, tag); t != nil {
		if !ownedBy(t.OwnerReferences, job.UID) {
			t.OwnerReferences = append(t.OwnerReferences, ownerRef(job))
			if job.Spec.ImagePullPolicy == v1alpha1.PullAlways {
				t.Version++
			}
			changed = true
		}
	} else {
		img.Tags = append(img.Tags, v1alpha1.ImageTagSpec{
			Tag:             tag,
			CreatedAt:       ptr.To(metav1.NewTime(now)),
			PullPolicy:      tagPullPolicy(job),
			OwnerReferences: []corev1.ObjectReference{ownerRef(job)},
			ImagePullPolicy: job.Spec.ImagePullPolicy,
		})
		changed = true
	}
	if !changed {
		return nil
	}
	spec.Images[name] = img
	return spec
}

// withRepull returns ni's spec with the job's tag at its next version, so the node
// daemon pulls it again.
func withRepull(ni *v1alpha1.NodeImage, name, tag string) *v1alpha1.NodeImageSpec {
	spec := ni.Spec.DeepCopy()
	img := spec.Images[name]
	t := findTag(img.Tags, tag)
	if t == nil {
		return nil
	}
	t.Version++
	spec.Images[name] = img
	return spec
}

func tagPullPolicy(job *v1alpha1.ImagePullJob) *v1alpha1.ImageTagPullPolicy {
	p := &v1alpha1.ImageTagPullPolicy{}
	if pp := job.Spec.PullPolicy; pp != nil {
		p.TimeoutSeconds = pp.TimeoutSeconds
		p.BackoffLimit = pp.BackoffLimit
	}
	if p.TimeoutSeconds == nil {
		p.TimeoutSeconds = ptr.To(v1alpha1.DefaultImagePullTimeoutSeconds)
	}
	if p.BackoffLimit == nil {
		p.BackoffLimit = ptr.To(v1alpha1.DefaultImagePullBackoffLimit)
	}
	return p
}
