package install

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/apitesting/roundtrip"
	metafuzzer "k8s.io/apimachinery/pkg/apis/meta/fuzzer"
)

// Every version survives internal -> version -> internal through JSON.
func TestRoundTripJSON(t *testing.T) {
	roundtrip.RoundTripTestForAPIGroup(t, Install, metafuzzer.Funcs)
}

// ...and through protobuf, the wire and storage encoding.
func TestRoundTripProtobuf(t *testing.T) {
	roundtrip.RoundTripProtobufTestForAPIGroup(t, Install, metafuzzer.Funcs)
}
