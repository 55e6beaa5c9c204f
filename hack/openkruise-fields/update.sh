#!/usr/bin/env bash
# Regenerates the OpenKruise field goldens of the field-parity test
# (test/integration/aggregation/parity_test.go) from kruise-api v1.8.0 and the reduced
# master sources committed under the test's testdata/openkruise-master.
set -o errexit -o nounset -o pipefail
cd "$(dirname "$0")/../.."
td=test/integration/aggregation/testdata
rm -f "$td"/openkruise/*.txt
go run ./hack/openkruise-fields -out "$td/openkruise" \
  -extra "apps.kruise.io/v1beta1=$td/openkruise-master/apps/v1beta1" \
  -extra "policy.kruise.io/v1beta1=$td/openkruise-master/policy/v1beta1"
