package kinds_test

import (
	"encoding/json"
	"testing"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	"github.com/kruise-native/kruise-native/pkg/apiserver/scheme"
	"github.com/kruise-native/kruise-native/pkg/registry/kinds"
	"github.com/kruise-native/kruise-native/pkg/registry/resource"
)

// servedKind is one kind in one served version.
type servedKind struct {
	desc resource.Descriptor
	gvk  schema.GroupVersionKind
}

func servedKinds(tb testing.TB) []servedKind {
	var out []servedKind
	for _, d := range kinds.All() {
		gvks, _, err := scheme.Scheme.ObjectKinds(d.NewObject())
		if err != nil || len(gvks) == 0 {
			tb.Fatalf("%s: no kind in the scheme: %v", d.GroupResource(), err)
		}
		for _, v := range d.ServedVersions() {
			out = append(out, servedKind{d, schema.GroupVersionKind{Group: gvks[0].Group, Version: v, Kind: gvks[0].Kind}})
		}
	}
	return out
}

// FuzzDecodeDefaultValidate: arbitrary JSON sent as any served kind and version is
// decoded, defaulted, converted to the hub and validated as a create would be, without
// panicking; defaulting is idempotent; and the hub object survives a round trip
// through the version it came in (what the server stores is what it serves back).
func FuzzDecodeDefaultValidate(f *testing.F) {
	served := servedKinds(f)
	seeds := []string{
		`{"metadata":{"name":"a","namespace":"ns"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"a"}},` +
			`"template":{"metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}},` +
			`"updateStrategy":{"type":"InPlaceIfPossible","partition":"50%","maxUnavailable":1}}}`,
		`{"metadata":{"name":"s"},"spec":{"selector":{"matchLabels":{"app":"a"}},"containers":[{"name":"log","image":"busybox"}]}}`,
		`{"metadata":{"name":"node-1"},"spec":{"images":{"nginx":{"tags":[{"tag":"1.9","pullPolicy":{"backoffLimit":-1}}]}}}}`,
		`{"metadata":{"name":"j","namespace":"ns"},"spec":{"image":"nginx:1","parallelism":"10%","completionPolicy":{"type":"Never"}}}`,
		`{"metadata":{"name":"r","namespace":"ns"},"spec":{"podName":"p","containers":[{"name":"c"}],"strategy":{"failurePolicy":"Ignore"}}}`,
		`{"spec":{"updateStrategy":{"rollingUpdate":{"rollingUpdateType":"Surging","maxSurge":"120%"}}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"name":"c","resources":{"limits":{"cpu":"1e3"}}}]}}}}`,
		`{"metadata":{"name":"rd"},"spec":{"resource":{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"stringData":{"a":"b"}},` +
			`"targets":{"allNamespaces":true,"excludedNamespaces":{"list":[{"name":"x"}]},"namespaceLabelSelector":{"matchLabels":{"g":"t"}}}}}`,
	}
	for i, s := range seeds {
		for k := range served {
			f.Add(uint8((i+k)%len(served)), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		sk := served[int(which)%len(served)]
		in, err := scheme.Scheme.New(sk.gvk)
		if err != nil {
			t.Fatal(err)
		}
		if json.Unmarshal(data, in) != nil {
			return
		}
		scheme.Scheme.Default(in)
		again := in.DeepCopyObject()
		scheme.Scheme.Default(again)
		if !apiequality.Semantic.DeepEqual(in, again) {
			t.Fatalf("%s: defaulting twice differs from once", sk.gvk)
		}
		hub := sk.desc.NewObject()
		if scheme.Scheme.Convert(in, hub, nil) != nil {
			return
		}
		ctx := genericapirequest.WithNamespace(genericapirequest.NewContext(), "ns")
		strategy, _ := sk.desc.Strategies(scheme.Scheme)
		strategy.PrepareForCreate(ctx, hub)
		_ = strategy.Validate(ctx, hub)
		_ = strategy.WarningsOnCreate(ctx, hub)

		out, err := scheme.Scheme.New(sk.gvk)
		if err != nil {
			t.Fatal(err)
		}
		if err := scheme.Scheme.Convert(hub, out, nil); err != nil {
			t.Fatalf("%s: hub does not convert back: %v", sk.gvk, err)
		}
		back := sk.desc.NewObject()
		if err := scheme.Scheme.Convert(out, back, nil); err != nil {
			t.Fatalf("%s: converted back, does not convert to the hub again: %v", sk.gvk, err)
		}
		if !apiequality.Semantic.DeepEqual(hub, back) {
			t.Fatalf("%s: hub -> %s -> hub is not stable", sk.gvk, sk.gvk.Version)
		}
	})
}
