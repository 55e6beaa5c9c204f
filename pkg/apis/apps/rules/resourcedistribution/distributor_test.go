package resourcedistribution

import (
	"strings"
	"testing"

	authenticationv1 "k8s.io/api/authentication/v1"
)

func TestDistributorOf(t *testing.T) {
	d := Distributor{Username: "alice", UID: "u1", Groups: []string{"devs"}, Extra: map[string]authenticationv1.ExtraValue{"k": {"v"}}}
	got, err := DistributorOf(map[string]string{DistributorAnnotation: EncodeDistributor(d)})
	if err != nil || got.Username != "alice" || got.UID != "u1" || got.Groups[0] != "devs" || got.Extra["k"][0] != "v" {
		t.Errorf("round trip: %+v %v", got, err)
	}
	for value, want := range map[string]string{
		"":               "unexpected end",
		"{}":             "names no user",
		`{"groups":[1]}`: "cannot unmarshal",
	} {
		if _, err := DistributorOf(map[string]string{DistributorAnnotation: value}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", value, err, want)
		}
	}
	if _, err := DistributorOf(nil); err == nil || !strings.Contains(err.Error(), "no distributor recorded") {
		t.Errorf("no annotation: %v", err)
	}
}
