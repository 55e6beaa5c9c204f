package features

import (
	"fmt"
	"sort"

	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/component-base/featuregate"
)

// Validate refuses the gate states this implementation cannot honour, all at once: a
// gate of a behaviour that is not built turned on, one whose behaviour is always on
// turned off, and combinations that contradict each other. Every binary calls it at
// start, so a setting that would be silently ignored stops the process instead.
func Validate(g featuregate.FeatureGate) error {
	var errs []error
	for _, name := range sortedNames() {
		spec := Gates[name]
		on := g.Enabled(name)
		switch {
		case spec.Support == Missing && on:
			errs = append(errs, fmt.Errorf("feature gate %s=true is not supported by kruise-native: %s "+
				"(AllAlpha=true turns it on too; add %s=false)", name, spec.Why, name))
		case spec.Support == AlwaysOn && !on:
			errs = append(errs, fmt.Errorf("feature gate %s=false is not supported by kruise-native, where it is always on: %s", name, spec.Why))
		}
	}
	if !g.Enabled(ImagePullJobGate) {
		for _, f := range []featuregate.Feature{PreDownloadImageForInPlaceUpdate, PreDownloadImageForDaemonSetUpdate} {
			if g.Enabled(f) {
				errs = append(errs, fmt.Errorf("feature gate %s=true needs %s=true: image pre-download works through ImagePullJobs", f, ImagePullJobGate))
			}
		}
	}
	return utilerrors.NewAggregate(errs)
}

func sortedNames() []featuregate.Feature {
	names := make([]featuregate.Feature, 0, len(Gates))
	for name := range Gates {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return names[i] < names[j] })
	return names
}
