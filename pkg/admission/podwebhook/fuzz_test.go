package podwebhook

import (
	"encoding/json"
	"net/http"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
)

// FuzzServe: whatever body kube-apiserver (or anyone who gets past authorization)
// sends to the mutate path, the server answers without panicking: 200 with an
// AdmissionReview that carries a response for the request's UID, or a 4xx/5xx.
func FuzzServe(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"1",` +
		`"kind":{"version":"v1","kind":"Pod"},"resource":{"version":"v1","resource":"pods"},"operation":"CREATE","namespace":"ns",` +
		`"object":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","labels":{"app":"web"}},` +
		`"spec":{"containers":[{"name":"web","image":"web:v1"}]}}}}`))
	f.Add([]byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"2",` +
		`"resource":{"version":"v1","resource":"pods"},"operation":"CREATE","object":{"spec":{"containers":null}}}}`))
	f.Add([]byte(`{"request":null}`))
	f.Add([]byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"3",` +
		`"resource":{"version":"v1","resource":"pods"},"operation":"DELETE","oldObject":{"metadata":{"name":"x"}}}}`))
	f.Add([]byte(`[]`))
	sidecars := storedSidecarSet(f, []byte(`{"apiVersion":"apps.kruise.io/v1alpha1","kind":"SidecarSet",
		"metadata":{"name":"log"},"spec":{"selector":{"matchLabels":{"app":"web"}},
		"containers":[{"name":"log","image":"log:v1","env":[{"name":"A","value":"b"}]}]}}`))
	s := newWebhook(true, nil, sidecars)
	f.Fuzz(func(t *testing.T, body []byte) {
		rec := serve(s, MutatePath, body)
		if rec.Code != http.StatusOK {
			if rec.Code < 400 {
				t.Fatalf("HTTP %d for a body it did not answer", rec.Code)
			}
			return
		}
		var in, out admissionv1.AdmissionReview
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.Response == nil {
			t.Fatalf("200 without an AdmissionReview response (%v): %s", err, rec.Body.String())
		}
		if err := json.Unmarshal(body, &in); err == nil && in.Request != nil && out.Response.UID != in.Request.UID {
			t.Fatalf("response for UID %q, request was %q", out.Response.UID, in.Request.UID)
		}
	})
}
