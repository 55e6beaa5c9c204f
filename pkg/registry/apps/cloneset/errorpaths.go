package cloneset

import (
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// v1beta1Paths maps hub (v1alpha1-shaped) paths to where v1beta1 keeps the field.
var v1beta1Paths = []struct{ hub, v1beta1 string }{
	{"spec.updateStrategy.partition", "spec.updateStrategy.rollingUpdate.partition"},
	{"spec.updateStrategy.maxUnavailable", "spec.updateStrategy.rollingUpdate.maxUnavailable"},
	{"spec.updateStrategy.maxSurge", "spec.updateStrategy.rollingUpdate.maxSurge"},
	{"spec.updateStrategy.paused", "spec.updateStrategy.rollingUpdate.paused"},
	{"spec.updateStrategy.priorityStrategy", "spec.updateStrategy.rollingUpdate.priorityStrategy"},
	{"spec.updateStrategy.scatterStrategy", "spec.updateStrategy.rollingUpdate.scatterStrategy"},
	{"spec.updateStrategy.inPlaceUpdateStrategy", "spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy"},
	{"spec.scaleStrategy.disablePVCReuse", "spec.scaleStrategy.enablePVCReuse"},
}

// errorPaths names fields as a v1beta1 client wrote them: CloneSet validation runs on
// the hub, whose update strategy has v1alpha1's flat shape.
func errorPaths(version string, errs field.ErrorList) field.ErrorList {
	if version != "v1beta1" {
		return errs
	}
	out := make(field.ErrorList, 0, len(errs))
	for _, e := range errs {
		e := *e
		for _, m := range v1beta1Paths {
			if e.Field == m.hub || strings.HasPrefix(e.Field, m.hub+".") || strings.HasPrefix(e.Field, m.hub+"[") {
				e.Field = m.v1beta1 + strings.TrimPrefix(e.Field, m.hub)
				break
			}
		}
		out = append(out, &e)
	}
	return out
}
