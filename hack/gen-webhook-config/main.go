// Command gen-webhook-config writes the Pod webhook's MutatingWebhookConfiguration and
// ValidatingWebhookConfiguration from the handler chain kruise-apiserver runs
// (podwebhook.EveryHandler), so the registered rules cannot disagree with the server:
// artifacts/deploy/apiserver/pod-webhook.yaml for a cluster (a Service), and
// hack/local/manifests/pod-webhook.yaml for the local stack (a loopback URL, with the
// placeholders hack/local-up.sh substitutes). hack/update-codegen.sh runs it;
// hack/verify-codegen.sh fails when the committed files differ from what it writes.
//
// Usage: go run ./hack/gen-webhook-config [-root DIR]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
)

// target is one file to write: its header and how its webhooks are reached.
type target struct {
	path    string
	header  string
	options func() podwebhook.WebhookOptions
}

var targets = []target{
	{
		path:   "artifacts/deploy/apiserver/pod-webhook.yaml",
		header: deployHeader,
		options: func() podwebhook.WebhookOptions {
			o := podwebhook.DefaultWebhookOptions()
			// caBundle: set by the cert-manager component, or by hack/gen-certs.sh --apply.
			o.ClientConfig.Service = &admissionregistrationv1.ServiceReference{
				Namespace: "kruise-system", Name: "kruise-apiserver", Port: ptr.To[int32](443)}
			return o
		},
	},
	{
		path:   "hack/local/manifests/pod-webhook.yaml",
		header: localHeader,
		options: func() podwebhook.WebhookOptions {
			o := podwebhook.DefaultWebhookOptions()
			o.FailurePolicy = "${POD_WEBHOOK_FAILURE_POLICY}"
			o.ClientConfig.URL = ptr.To("https://127.0.0.1:${KRUISE_APISERVER_PORT}")
			o.ClientConfig.CABundle = []byte("${KRUISE_CA_BUNDLE}")
			return o
		},
	},
}

func main() {
	root := flag.String("root", ".", "repository root the files are written under")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintf(os.Stderr, "gen-webhook-config: %v\n", err)
		os.Exit(1)
	}
}

func run(root string) error {
	handlers := podwebhook.EveryHandler()
	for _, t := range targets {
		data, err := render(handlers, t.header, t.options())
		if err != nil {
			return fmt.Errorf("%s: %w", t.path, err)
		}
		if err := os.WriteFile(filepath.Join(root, t.path), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
