package resourcedistribution

import (
	"encoding/json"
	"errors"
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
)

// DistributorAnnotation records, on a ResourceDistribution, the user on whose behalf
// its copies are written: the user who created it or last changed its spec, as
// kube-apiserver authenticated them (name, uid, groups, extra; JSON of an
// authentication.k8s.io/v1 UserInfo). kruise-apiserver sets it and replaces any value a
// client sends (pkg/registry/apps/resourcedistribution). The controller asks, with a
// SubjectAccessReview for this user, before it writes a copy into a namespace that
// starts to match later; the user's rights were checked at admission for the
// namespaces that matched then.
const DistributorAnnotation = "resourcedistribution.kruise-native.io/distributor"

// Distributor is who a distribution writes its copies for.
type Distributor = authenticationv1.UserInfo

// EncodeDistributor is the annotation's value for d.
func EncodeDistributor(d Distributor) string {
	b, err := json.Marshal(d)
	if err != nil {
		// Strings, slices of strings and maps of them always marshal.
		panic(fmt.Sprintf("encoding a UserInfo: %v", err))
	}
	return string(b)
}

// DistributorOf reads the annotation. A distribution without one (stored before the
// server recorded it, or by a server without its registry) has no distributor: it
// writes no new copy until its spec is changed by a user who passes the admission
// check.
func DistributorOf(annotations map[string]string) (Distributor, error) {
	raw, ok := annotations[DistributorAnnotation]
	if !ok {
		return Distributor{}, errors.New("no distributor recorded (annotation " + DistributorAnnotation +
			"): change the spec to have kruise-apiserver record and check the user")
	}
	var d Distributor
	if err := json.Unmarshal([]byte(raw), &d); err != nil {
		return Distributor{}, fmt.Errorf("annotation %s: %w", DistributorAnnotation, err)
	}
	if d.Username == "" {
		return Distributor{}, fmt.Errorf("annotation %s names no user", DistributorAnnotation)
	}
	return d, nil
}
