package options

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/pflag"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
)

func registrationFlags(t *testing.T, args ...string) *PodWebhookRegistrationOptions {
	t.Helper()
	o := NewPodWebhookRegistrationOptions()
	fs := pflag.NewFlagSet("kruise-apiserver", pflag.ContinueOnError)
	o.AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return o
}

// The flags become the registration: the Service, the CA file's bytes, each failure
// policy, selectors given as JSON (the chart's values), the timeout.
func TestPodWebhookRegistrationFlags(t *testing.T) {
	ca := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(ca, []byte("PEM"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := registrationFlags(t, "--pod-webhook-service=kruise-system/kruise-apiserver", "--pod-webhook-ca-file="+ca,
		"--pod-webhook-failure-policy=Fail", "--deletion-webhook-failure-policy=Fail",
		`--pod-webhook-namespace-selector={"matchLabels":{"sidecars":"required"}}`, "--pod-webhook-timeout-seconds=5")
	if errs := o.Validate(); len(errs) > 0 {
		t.Fatal(errors.Join(errs...))
	}
	w, err := o.WebhookOptions()
	if err != nil {
		t.Fatal(err)
	}
	d := podwebhook.DefaultWebhookOptions()
	if s := w.ClientConfig.Service; s == nil || s.Namespace != "kruise-system" || s.Name != "kruise-apiserver" || *s.Port != 443 || w.ClientConfig.URL != nil {
		t.Errorf("client config %+v", w.ClientConfig)
	}
	if string(w.ClientConfig.CABundle) != "PEM" {
		t.Errorf("caBundle %q, want the CA file's", w.ClientConfig.CABundle)
	}
	if w.FailurePolicy != admissionregistrationv1.Fail || w.ValidatingFailurePolicy != admissionregistrationv1.Ignore ||
		w.Deletion.FailurePolicy != admissionregistrationv1.Fail || w.TimeoutSeconds != 5 {
		t.Errorf("policies and timeout %+v", w)
	}
	if want := (&metav1.LabelSelector{MatchLabels: map[string]string{"sidecars": "required"}}); !reflect.DeepEqual(w.NamespaceSelector, want) {
		t.Errorf("namespaceSelector %v, want %v", w.NamespaceSelector, want)
	}
	if !reflect.DeepEqual(w.ObjectSelector, d.ObjectSelector) || !reflect.DeepEqual(w.Deletion, podwebhook.Scope{
		FailurePolicy: admissionregistrationv1.Fail, NamespaceSelector: d.Deletion.NamespaceSelector,
		ObjectSelector: d.Deletion.ObjectSelector, TimeoutSeconds: d.Deletion.TimeoutSeconds}) {
		t.Errorf("defaults not kept: object selector %v, deletion %+v", w.ObjectSelector, w.Deletion)
	}
}

func TestPodWebhookRegistrationValidate(t *testing.T) {
	ca := filepath.Join(t.TempDir(), "ca.crt")
	if err := os.WriteFile(ca, []byte("PEM"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		args []string
		want string // a part of the error; "" valid
	}{
		"nothing registered":  {nil, ""},
		"url":                 {[]string{"--pod-webhook-url=https://127.0.0.1:9443", "--pod-webhook-ca-file=" + ca}, ""},
		"both":                {[]string{"--pod-webhook-url=https://127.0.0.1:9443", "--pod-webhook-service=a/b", "--pod-webhook-ca-file=" + ca}, "give one"},
		"no CA":               {[]string{"--pod-webhook-service=a/b"}, "--pod-webhook-ca-file is required"},
		"missing CA file":     {[]string{"--pod-webhook-service=a/b", "--pod-webhook-ca-file=/nonexistent"}, "--pod-webhook-ca-file"},
		"service without ns":  {[]string{"--pod-webhook-service=b", "--pod-webhook-ca-file=" + ca}, "namespace/name"},
		"bad policy":          {[]string{"--pod-webhook-service=a/b", "--pod-webhook-ca-file=" + ca, "--pod-webhook-validating-failure-policy=fail"}, "Ignore or Fail"},
		"bad timeout":         {[]string{"--pod-webhook-service=a/b", "--pod-webhook-ca-file=" + ca, "--pod-webhook-timeout-seconds=31"}, "1 to 30"},
		"bad selector":        {[]string{"--pod-webhook-service=a/b", "--pod-webhook-ca-file=" + ca, `--pod-webhook-object-selector={"matchLabel":{}}`}, "--pod-webhook-object-selector"},
		"bad selector values": {[]string{"--pod-webhook-service=a/b", "--pod-webhook-ca-file=" + ca, `--pod-webhook-object-selector={"matchExpressions":[{"key":"a","operator":"In"}]}`}, "--pod-webhook-object-selector"},
	} {
		t.Run(name, func(t *testing.T) {
			err := errors.Join(registrationFlags(t, tc.args...).Validate()...)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate() = %v, want valid", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate() = %v, want an error with %q", err, tc.want)
			}
		})
	}
}
