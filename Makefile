# Kruise Native — build, test, run locally.
SHELL := /usr/bin/env bash
export GONOSUMDB := k8s.io
export GOFLAGS := -mod=mod
OUT := $(CURDIR)/_output
BIN := $(OUT)/bin
# The release: images are tagged v$(VERSION), and the chart (version, appVersion, default
# image tags) and the kustomize base's image tags follow it (make chart; make verify checks).
VERSION := $(shell cat $(CURDIR)/VERSION)

.PHONY: all build install-plugin chart images tools helm up down test test-unit test-fuzz test-integration test-chaos test-containerd test-cluster node-deps verify codegen bench bench-node clean

all: build

## build: our binaries (kruise-apiserver, kruise-controller, kruise-node-daemon, and for the local
## stack kruise-node-daemon-dev: the daemon with a fake runtime for kwok nodes) into _output/bin,
## and the kubectl plugin kubectl-kruise under its own name (kubectl finds plugins by the
## kubectl- prefix, so it must not become kruise-kubectl-kruise)
build:
	@mkdir -p $(BIN)
	@for d in cmd/*/; do n=$$(basename $$d); case $$n in kubectl-*) b=$$n;; *) b=kruise-$$n;; esac; \
	  echo "go build $$b"; go build -o $(BIN)/$$b ./$$d || exit 1; done
	@install -m 0755 hack/kubectl_complete-kruise $(BIN)/kubectl_complete-kruise

## install-plugin: kubectl-kruise (and kubectl_complete-kruise, which completes
## `kubectl kruise <TAB>`) into PLUGIN_DIR, by default the go install directory; the same
## as `go install ./cmd/kubectl-kruise`. kubectl finds the plugin on PATH.
PLUGIN_DIR ?= $(or $(shell go env GOBIN),$(shell go env GOPATH)/bin)
install-plugin:
	@mkdir -p $(PLUGIN_DIR)
	go build -o $(PLUGIN_DIR)/kubectl-kruise ./cmd/kubectl-kruise
	install -m 0755 hack/kubectl_complete-kruise $(PLUGIN_DIR)/kubectl_complete-kruise
	@echo "installed $(PLUGIN_DIR)/kubectl-kruise; with $(PLUGIN_DIR) on PATH, run: kubectl kruise version"

## tools: the real Kubernetes components, etcd and kwok into _output/bin (cached)
tools:
	hack/tools/build.sh

## helm: helm into _output/bin for the chart's tests (hack/tools/build-helm.sh, its own
## module and stamp; cached). Only test-integration needs it.
helm:
	hack/tools/build-helm.sh

## images: OCI images of kruise-apiserver, kruise-controller, kruise-node-daemon and a
## pause image, tagged v$(VERSION), built offline from static binaries (hack/images; no
## Docker, no base image) into _output/images/<name>_v$(VERSION).oci.tar, importable with
## `ctr -n k8s.io images import`. Reproducible: the same source gives the same digests
## (listed in _output/images/images.txt). REGISTRY=host:port also pushes them there as
## host:port/kruise-native/<name>:v$(VERSION) (REGISTRY_INSECURE=1: plain HTTP).
## GOARCH=arm64 builds for another architecture.
## (go run itself builds for this machine: GOARCH is passed as -arch only.)
images:
	env -u GOARCH go run ./hack/images -version v$(VERSION) -out $(OUT)/images -arch $(or $(GOARCH),$(shell go env GOARCH)) \
	  $(if $(REGISTRY),-registry $(REGISTRY)) $(if $(REGISTRY_INSECURE),-insecure)

## up: the whole system on this machine (control plane + kruise), kubeconfig printed
## (internal/localstack through hack/local). HA=1: the HA topology (hack/LOCAL.md).
up: tools build
	go run ./hack/local up

## down: stop what `make up` started (CLEAN=1 also removes the data)
down:
	go run ./hack/local stop

## test: every test — verification, unit, bounded fuzzing, integration against the real stack
test: verify test-unit test-fuzz test-integration

test-unit:
	go test ./pkg/... ./cmd/... ./hack/... ./internal/...

## test-fuzz: each fuzz target for FUZZTIME (their seed corpora also run in test-unit).
## A crash fails the run and leaves its input in the package's testdata/fuzz: commit it
## with the fix, as a regression case.
FUZZTIME ?= 10s
FUZZ_TARGETS := \
	./pkg/registry/kinds:FuzzDecodeDefaultValidate \
	./pkg/admission/podwebhook:FuzzServe \
	./pkg/nodedaemon/imagepuller:FuzzParseReference
test-fuzz:
	@for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; echo "fuzz $$fn ($$pkg, $(FUZZTIME))"; \
	  go test -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; done

## test-integration: each package starts a private stack on its own ports, so packages run
## INTEGRATION_P at a time (2: two stacks fit this kind of machine; 1 for a loaded machine).
INTEGRATION_P ?= 2
test-integration: tools helm build
	go test -count=1 -timeout 50m -p $(INTEGRATION_P) ./test/integration/...

## test-chaos: opt-in, not part of `make test`: test/integration/chaos kills and restarts components
## of the HA topology (make up HA=1) under a steady write load and a 200-pod CloneSet rollout, and
## writes test/integration/chaos/results/<date>.md. SMALL=1: a 20-pod rollout (about 10 minutes).
## Installs Debian's haproxy with apt-get when it is missing.
test-chaos: tools build
	@command -v haproxy >/dev/null || \
	  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends haproxy; }
	KRUISE_CHAOS=1 $(if $(SMALL),CHAOS_PODS=20) go test -count=1 -v -timeout 60m ./test/integration/chaos/

## test-containerd: opt-in, not part of `make test`: the node daemon's CRI code against a real
## containerd on a private socket (test/containerd). Installs Debian's containerd and runc with
## apt-get when containerd is missing; needs root. Skips, saying why, where containerd cannot run.
test-containerd:
	@command -v containerd >/dev/null && command -v runc >/dev/null || \
	  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y containerd runc; }
	KRUISE_TEST_CONTAINERD=1 go test -count=1 -v -timeout 10m ./test/containerd/...

## node-deps: what a real node needs (root), for test-cluster and bench-node: Debian's
## containerd, runc, iptables and CNI plugins (apt-installed when missing), kubelet and
## kube-proxy (hack/tools/build-node.sh, once: ~8 min on 2 cores).
node-deps:
	@command -v containerd >/dev/null && command -v runc >/dev/null && command -v iptables >/dev/null && \
	  [ -x /usr/lib/cni/bridge ] || \
	  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	      containerd runc iptables containernetworking-plugins; }
	hack/tools/build-node.sh

## test-cluster: opt-in, not part of `make test`: a real single-node cluster on this machine
## (test/cluster; root): Debian's containerd, runc and CNI plugins (apt-installed with iptables
## when missing), kubelet and kube-proxy (hack/tools/build-node.sh, once: ~8 min on 2 cores),
## the control plane from `make tools`, the images of `make images`. The suite installs the
## chart, runs the examples with real pods, upgrades under load, restarts containerd and
## uninstalls. It changes the host while it runs (network devices, iptables, cgroups,
## sysctls) and restores it, checked against a snapshot taken before; logs in
## _output/test-cluster/logs.
test-cluster: tools helm images node-deps
	KRUISE_TEST_CLUSTER=1 go test -count=1 -v -timeout 60m ./test/cluster/...

## verify: generated code up to date, gofmt and go vet clean, nothing read from outside the
## repository (hack/verify-standalone.sh), imports only down the layers of ARCHITECTURE.md
## and no test support in a product binary (hack/verify-imports.sh)
verify:
	hack/verify-codegen.sh
	hack/verify-chart.sh
	hack/verify-gofmt.sh
	hack/verify-standalone.sh
	hack/verify-imports.sh
	go vet ./...

codegen:
	hack/update-codegen.sh

## chart: regenerate the Helm chart artifacts/charts/kruise-native from artifacts/deploy
## (hack/gen-helm-chart; hack/verify-chart.sh, part of `make verify`, checks it is current)
chart:
	go run ./hack/gen-helm-chart

## bench: opt-in, never part of `make test`: test/bench's benchmark on a private stack of 10
## kwok nodes (about 40 minutes; one at a time) -> test/bench/results/<date>.{json,md} + PNG
## charts, and README's benchmark section. `make bench BENCH_ARGS=-small` checks it in minutes.
bench: tools build
	go run ./test/bench/cmd/kruise-bench $(BENCH_ARGS)

## bench-node: opt-in, not part of `make test` or `make bench`: rollouts on a real node
## (test/bench/cmd/node-bench; root, about 15 minutes): on `make test-cluster`'s single-node
## cluster, a CloneSet InPlaceIfPossible, a CloneSet ReCreate and a Deployment of 50 pods
## rolled to a new image tag at the same maxUnavailable, and the in-place one with
## pre-download, in 3 rounds -> test/bench/results/<date>-node-rollout.{json,md,png}.
## Changes the host while it runs and restores it as test-cluster does. BENCH_NODE_ARGS: its flags.
bench-node: tools helm images node-deps
	go run ./test/bench/cmd/node-bench $(BENCH_NODE_ARGS)

clean:
	rm -rf $(OUT)
