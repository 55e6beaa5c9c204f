package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
)

// What hack/local-up.sh substitutes.
var substitutions = strings.NewReplacer(
	"${KRUISE_APISERVER_PORT}", "9443",
	"${KRUISE_CA_BUNDLE}", "Y2E=", // base64("ca")
	"${POD_WEBHOOK_FAILURE_POLICY}", "Fail",
)

// The written YAML, once local-up.sh has substituted its placeholders, is the
// configuration WebhookConfigurations returns: the rendering adds and loses nothing.
func TestRenderRoundTrip(t *testing.T) {
	noop := func(context.Context, *admissionv1.AdmissionRequest) error { return nil }
	lists := map[string][]podwebhook.Handler{
		"kruise-apiserver": podwebhook.EveryHandler(),
		"with a validating handler": append(podwebhook.EveryHandler(), podwebhook.Handler{Name: "pub", Validate: noop,
			Rules: []podwebhook.Rule{{Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Delete}, Resource: podwebhook.Pods}}}),
	}
	local := targets[1]
	for name, handlers := range lists {
		t.Run(name, func(t *testing.T) {
			data, err := render(handlers, local.header, local.options())
			if err != nil {
				t.Fatal(err)
			}
			text := string(data)
			for _, p := range []string{"failurePolicy: ${POD_WEBHOOK_FAILURE_POLICY}", "caBundle: ${KRUISE_CA_BUNDLE}",
				"url: https://127.0.0.1:${KRUISE_APISERVER_PORT}/admission/mutate/pods", "# The local stack's registration"} {
				if !strings.Contains(text, p) {
					t.Errorf("no %q in\n%s", p, text)
				}
			}
			docs := strings.Split(substitutions.Replace(text), "\n---\n")

			opts := local.options()
			opts.FailurePolicy = admissionregistrationv1.Fail
			opts.ClientConfig.URL = ptr.To("https://127.0.0.1:9443")
			opts.ClientConfig.CABundle = []byte("ca")
			mutating, validating, err := podwebhook.WebhookConfigurations(handlers, opts)
			if err != nil {
				t.Fatal(err)
			}
			var gotM admissionregistrationv1.MutatingWebhookConfiguration
			if err := yaml.UnmarshalStrict([]byte(docs[0]), &gotM); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(mutating, &gotM); diff != "" {
				t.Errorf("mutating configuration (-want +written):\n%s", diff)
			}
			if validating == nil {
				if len(docs) != 1 {
					t.Errorf("%d documents, want the mutating configuration only", len(docs))
				}
				return
			}
			var gotV admissionregistrationv1.ValidatingWebhookConfiguration
			if len(docs) != 2 {
				t.Fatalf("%d documents, want two", len(docs))
			}
			if err := yaml.UnmarshalStrict([]byte(docs[1]), &gotV); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(validating, &gotV); diff != "" {
				t.Errorf("validating configuration (-want +written):\n%s", diff)
			}
		})
	}
}

// run writes every target under the root it is given.
func TestRunWritesTargets(t *testing.T) {
	root := t.TempDir()
	for _, tg := range targets {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, tg.path)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := run(root); err != nil {
		t.Fatal(err)
	}
	for _, tg := range targets {
		data, err := os.ReadFile(filepath.Join(root, tg.path))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), "sidecarset-injection") || !strings.HasPrefix(string(data), "# ") {
			t.Errorf("%s:\n%s", tg.path, data)
		}
	}
}
