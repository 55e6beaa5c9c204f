package inplaceupdate

import (
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/kruise-native/kruise-native/pkg/controllers/internal/revision"
)

// SpecCache memoises per-revision work for one sync of a workload: each revision's pod
// template is decoded once, and the in-place update from each old revision to the
// update revision is computed once, however many pods a rollout touches. The zero
// value is ready to use; make a new one per sync (revisions may change between syncs).
// It is safe for the concurrent writes of one sync (pods are updated in parallel).
type SpecCache struct {
	// Options are what the computed updates may change (CalculateSpecWith).
	Options   Options
	mu        sync.Mutex
	templates map[string]*corev1.PodTemplateSpec
	specs     map[string]*UpdateSpec
}

// Template returns rev's pod template.
func (c *SpecCache) Template(rev *appsv1.ControllerRevision) (*corev1.PodTemplateSpec, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.template(rev)
}

func (c *SpecCache) template(rev *appsv1.ControllerRevision) (*corev1.PodTemplateSpec, error) {
	if t, ok := c.templates[rev.Name]; ok {
		return t, nil
	}
	t, err := revision.Template(rev)
	if err != nil {
		return nil, err
	}
	if c.templates == nil {
		c.templates = map[string]*corev1.PodTemplateSpec{}
	}
	c.templates[rev.Name] = t
	return t, nil
}

// Spec returns the in-place update from oldRev to updateRev, nil when it cannot be
// done in place.
func (c *SpecCache) Spec(oldRev, updateRev *appsv1.ControllerRevision) (*UpdateSpec, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if spec, ok := c.specs[oldRev.Name]; ok {
		return spec, nil
	}
	oldTmpl, err := c.template(oldRev)
	if err != nil {
		return nil, err
	}
	newTmpl, err := c.template(updateRev)
	if err != nil {
		return nil, err
	}
	spec := CalculateSpecWith(oldTmpl, newTmpl, updateRev.Name, c.Options)
	if c.specs == nil {
		c.specs = map[string]*UpdateSpec{}
	}
	c.specs[oldRev.Name] = spec
	return spec, nil
}
