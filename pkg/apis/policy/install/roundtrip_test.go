package install

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/apitesting/fuzzer"
	"k8s.io/apimachinery/pkg/api/apitesting/roundtrip"
	metafuzzer "k8s.io/apimachinery/pkg/apis/meta/fuzzer"

	policyfuzzer "github.com/kruise-native/kruise-native/pkg/apis/policy/fuzzer"
)

var fuzzers = fuzzer.MergeFuzzerFuncs(metafuzzer.Funcs, policyfuzzer.Funcs)

// Every version survives internal -> version -> internal through JSON.
func TestRoundTripJSON(t *testing.T) {
	roundtrip.RoundTripTestForAPIGroup(t, Install, fuzzers)
}

// ...and through protobuf, the wire and storage encoding.
func TestRoundTripProtobuf(t *testing.T) {
	roundtrip.RoundTripProtobufTestForAPIGroup(t, Install, fuzzers)
}
