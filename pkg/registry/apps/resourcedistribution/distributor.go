package resourcedistribution

import (
	"context"
	"maps"

	authenticationv1 "k8s.io/api/authentication/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	rdcontract "github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
)

// recordDistributorOnCreate records the requesting user as the distribution's
// distributor (rdcontract.DistributorAnnotation), replacing whatever the client sent:
// the copies are written on behalf of the user kruise-apiserver's admission checked.
// As kube records a CertificateSigningRequest's requester from the request's user.
func recordDistributorOnCreate(ctx context.Context, rd *apps.ResourceDistribution) {
	setDistributor(rd, requester(ctx))
}

// recordDistributorOnUpdate records the requesting user when the spec changes (the
// admission check then asks about that user); any other update keeps the stored value,
// whatever the client sent, so that neither a label change by someone else nor a
// client can move the distribution to another user's rights.
func recordDistributorOnUpdate(ctx context.Context, rd, old *apps.ResourceDistribution) {
	if !apiequality.Semantic.DeepEqual(rd.Spec, old.Spec) {
		setDistributor(rd, requester(ctx))
		return
	}
	value, ok := old.Annotations[rdcontract.DistributorAnnotation]
	if !ok {
		setDistributor(rd, nil)
		return
	}
	rd.Annotations = maps.Clone(rd.Annotations)
	if rd.Annotations == nil {
		rd.Annotations = map[string]string{}
	}
	rd.Annotations[rdcontract.DistributorAnnotation] = value
}

// requester is the request's user; nil when the context has none (never in a served
// request: authentication puts one there).
func requester(ctx context.Context) *rdcontract.Distributor {
	u, ok := genericapirequest.UserFrom(ctx)
	if !ok || u == nil || u.GetName() == "" {
		return nil
	}
	d := &rdcontract.Distributor{Username: u.GetName(), UID: u.GetUID(), Groups: u.GetGroups()}
	if extra := u.GetExtra(); len(extra) > 0 {
		d.Extra = make(map[string]authenticationv1.ExtraValue, len(extra))
		for k, v := range extra {
			d.Extra[k] = v
		}
	}
	return d
}

// setDistributor writes d into the annotation, or removes it when d is nil.
func setDistributor(rd *apps.ResourceDistribution, d *rdcontract.Distributor) {
	annotations := maps.Clone(rd.Annotations)
	if d == nil {
		delete(annotations, rdcontract.DistributorAnnotation)
	} else {
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[rdcontract.DistributorAnnotation] = rdcontract.EncodeDistributor(*d)
	}
	if len(annotations) == 0 {
		annotations = nil
	}
	rd.Annotations = annotations
}
