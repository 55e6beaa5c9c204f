package resourcedistribution

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/authentication/user"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/kruise-native/kruise-native/pkg/apis/apps"
	"github.com/kruise-native/kruise-native/pkg/apis/apps/install"
	rdcontract "github.com/kruise-native/kruise-native/pkg/apis/apps/rules/resourcedistribution"
)

var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

func as(name string, groups ...string) context.Context {
	return genericapirequest.WithUser(context.Background(), &user.DefaultInfo{
		Name: name, UID: name + "-uid", Groups: groups, Extra: map[string][]string{"scopes": {"x"}}})
}

func distribution(data string, annotations map[string]string) *apps.ResourceDistribution {
	return &apps.ResourceDistribution{
		ObjectMeta: metav1.ObjectMeta{Name: "sample", ResourceVersion: "1", Annotations: annotations},
		Spec: apps.ResourceDistributionSpec{Resource: runtime.RawExtension{Raw: []byte(
			`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"a":"` + data + `"}}`)}},
	}
}

func distributorOf(t *testing.T, rd *apps.ResourceDistribution) string {
	t.Helper()
	d, err := rdcontract.DistributorOf(rd.Annotations)
	if err != nil {
		return ""
	}
	if d.UID != d.Username+"-uid" || len(d.Extra["scopes"]) != 1 {
		t.Errorf("recorded %+v: uid and extra lost", d)
	}
	return d.Username
}

// The server records who the copies are written for: the creator, then whoever changes
// the spec; never what a client writes into the annotation.
func TestDistributorIsRecordedByTheServer(t *testing.T) {
	s, status := Kind.Strategies(scheme)
	forged := map[string]string{rdcontract.DistributorAnnotation: `{"username":"system:admin","groups":["system:masters"]}`, "keep": "me"}

	created := distribution("1", forged)
	s.PrepareForCreate(as("alice", "devs"), created)
	if got := distributorOf(t, created); got != "alice" || created.Annotations["keep"] != "me" {
		t.Fatalf("create: distributor %q, annotations %v; want alice, others kept", got, created.Annotations)
	}

	relabel := created.DeepCopy()
	relabel.Labels = map[string]string{"team": "x"}
	relabel.Annotations[rdcontract.DistributorAnnotation] = forged[rdcontract.DistributorAnnotation]
	s.PrepareForUpdate(as("bob"), relabel, created)
	if got := distributorOf(t, relabel); got != "alice" {
		t.Errorf("metadata-only update by bob: distributor %q, want alice kept (and the forged value dropped)", got)
	}

	removed := created.DeepCopy()
	delete(removed.Annotations, rdcontract.DistributorAnnotation)
	s.PrepareForUpdate(as("bob"), removed, created)
	if got := distributorOf(t, removed); got != "alice" {
		t.Errorf("update dropping the annotation: distributor %q, want alice kept", got)
	}

	changed := distribution("2", created.Annotations)
	s.PrepareForUpdate(as("bob"), changed, created)
	if got := distributorOf(t, changed); got != "bob" {
		t.Errorf("spec changed by bob: distributor %q, want bob", got)
	}

	statusWrite := created.DeepCopy()
	statusWrite.Annotations[rdcontract.DistributorAnnotation] = forged[rdcontract.DistributorAnnotation]
	status.PrepareForUpdate(as("kruise-controller"), statusWrite, created)
	if got := distributorOf(t, statusWrite); got != "alice" {
		t.Errorf("status write: distributor %q, want alice kept", got)
	}

	legacy := distribution("1", nil)
	anon := distribution("1", forged)
	s.PrepareForUpdate(as("bob"), anon, legacy)
	if _, ok := anon.Annotations[rdcontract.DistributorAnnotation]; ok {
		t.Errorf("metadata-only update of a distribution without a distributor set one: %v", anon.Annotations)
	}
}
