package options

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/kruise-native/kruise-native/pkg/admission/podwebhook"
)

// PodWebhookRegistrationOptions say how kruise-apiserver registers its webhooks with
// kube-apiserver (podwebhook.Registrar): where kube-apiserver reaches it, the CA that
// verifies it, and each webhook's failure policy and scope. Without --pod-webhook-service
// or --pod-webhook-url nothing is registered (the configurations are someone else's).
type PodWebhookRegistrationOptions struct {
	// Service is namespace/name of the Service in front of kruise-apiserver.
	Service     string
	ServicePort int32
	// URL is https://host:port, for a kruise-apiserver outside the cluster (make up).
	URL string
	// CAFile holds the PEM CA bundle that verifies kruise-apiserver's serving certificate.
	CAFile                  string
	FailurePolicy           string
	ValidatingFailurePolicy string
	DeletionFailurePolicy   string
	// NamespaceSelector and ObjectSelector are metav1.LabelSelectors as JSON (or YAML);
	// empty keeps the default.
	NamespaceSelector, ObjectSelector string
	TimeoutSeconds                    int32
	// Owner is the ClusterRole the configurations are owned by, so that deleting it
	// (uninstalling) deletes them.
	Owner string
}

// NewPodWebhookRegistrationOptions are the defaults: registered nowhere, and when
// registered, podwebhook.DefaultWebhookOptions.
func NewPodWebhookRegistrationOptions() *PodWebhookRegistrationOptions {
	d := podwebhook.DefaultWebhookOptions()
	return &PodWebhookRegistrationOptions{
		ServicePort:             443,
		FailurePolicy:           string(d.FailurePolicy),
		ValidatingFailurePolicy: string(d.FailurePolicy),
		DeletionFailurePolicy:   string(d.Deletion.FailurePolicy),
		TimeoutSeconds:          d.TimeoutSeconds,
	}
}

// AddFlags registers the --pod-webhook-* registration flags.
func (o *PodWebhookRegistrationOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Service, "pod-webhook-service", o.Service,
		"namespace/name of the Service kube-apiserver calls the webhooks through. With it (or --pod-webhook-url) "+
			"kruise-apiserver creates and updates the MutatingWebhookConfiguration and ValidatingWebhookConfiguration "+
			podwebhook.ConfigurationName+" at start (server-side apply; needs create and patch on them), and is "+
			"not Ready until it has. Without either it registers nothing.")
	fs.Int32Var(&o.ServicePort, "pod-webhook-service-port", o.ServicePort, "Port of --pod-webhook-service.")
	fs.StringVar(&o.URL, "pod-webhook-url", o.URL,
		"https://host:port kube-apiserver calls the webhooks at, instead of a Service (a kruise-apiserver outside "+
			"the cluster, as make up runs it). The path is each webhook's.")
	fs.StringVar(&o.CAFile, "pod-webhook-ca-file", o.CAFile,
		"PEM file of the CA kube-apiserver verifies the webhooks' serving certificate with (the registrations' "+
			"caBundle), such as the ca.crt of the serving certificate's Secret. Read at start.")
	fs.StringVar(&o.FailurePolicy, "pod-webhook-failure-policy", o.FailurePolicy,
		"Ignore or Fail: what a failed call of the mutating Pod webhook (SidecarSet injection, WorkloadSpread "+
			"placement) does to the pod create. Fail only with a narrowed --pod-webhook-namespace-selector.")
	fs.StringVar(&o.ValidatingFailurePolicy, "pod-webhook-validating-failure-policy", o.ValidatingFailurePolicy,
		"Ignore or Fail: the same for the validating Pod webhook (PodUnavailableBudget guard, WorkloadSpread release).")
	fs.StringVar(&o.DeletionFailurePolicy, "deletion-webhook-failure-policy", o.DeletionFailurePolicy,
		"Ignore or Fail: the same for the deletion-protection webhook.")
	fs.StringVar(&o.NamespaceSelector, "pod-webhook-namespace-selector", o.NamespaceSelector,
		"The Pod webhook's namespaceSelector (both entries), a LabelSelector as JSON. Default: every namespace "+
			"but "+strings.Join(podwebhook.ExemptNamespaces, ", ")+" and those labelled "+podwebhook.OptOutLabel+"=disabled.")
	fs.StringVar(&o.ObjectSelector, "pod-webhook-object-selector", o.ObjectSelector,
		"The Pod webhook's objectSelector (both entries), a LabelSelector as JSON. Default: every pod but those "+
			"labelled "+podwebhook.OptOutLabel+"=disabled.")
	fs.Int32Var(&o.TimeoutSeconds, "pod-webhook-timeout-seconds", o.TimeoutSeconds,
		"The Pod webhook's timeoutSeconds (1-30): what an unresponsive kruise-apiserver adds to each request in scope.")
	fs.StringVar(&o.Owner, "pod-webhook-registration-owner", o.Owner,
		"ClusterRole that owns the registrations (ownerReferences): deleting it, as helm uninstall and kubectl "+
			"delete -k do, makes the garbage collector delete them. It must exist (needs get on it); empty: no owner.")
}

// Enabled reports whether kruise-apiserver registers its webhooks.
func (o *PodWebhookRegistrationOptions) Enabled() bool { return o.Service != "" || o.URL != "" }

// Validate reports every invalid registration flag.
func (o *PodWebhookRegistrationOptions) Validate() []error {
	if !o.Enabled() {
		return nil
	}
	var errs []error
	if o.Service != "" && o.URL != "" {
		errs = append(errs, fmt.Errorf("--pod-webhook-service and --pod-webhook-url: give one"))
	}
	if o.Service != "" {
		if ns, name, ok := strings.Cut(o.Service, "/"); !ok || ns == "" || name == "" || strings.Contains(name, "/") {
			errs = append(errs, fmt.Errorf("--pod-webhook-service %q: want namespace/name", o.Service))
		}
	}
	if o.CAFile == "" {
		errs = append(errs, fmt.Errorf("--pod-webhook-ca-file is required to register the webhooks"))
	}
	for flag, p := range map[string]string{"--pod-webhook-failure-policy": o.FailurePolicy,
		"--pod-webhook-validating-failure-policy": o.ValidatingFailurePolicy, "--deletion-webhook-failure-policy": o.DeletionFailurePolicy} {
		if p != string(admissionregistrationv1.Ignore) && p != string(admissionregistrationv1.Fail) {
			errs = append(errs, fmt.Errorf("%s %q: want Ignore or Fail", flag, p))
		}
	}
	if o.TimeoutSeconds < 1 || o.TimeoutSeconds > 30 {
		errs = append(errs, fmt.Errorf("--pod-webhook-timeout-seconds %d: want 1 to 30", o.TimeoutSeconds))
	}
	for flag, s := range map[string]string{"--pod-webhook-namespace-selector": o.NamespaceSelector, "--pod-webhook-object-selector": o.ObjectSelector} {
		if _, err := parseSelector(s, nil); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", flag, err))
		}
	}
	if o.CAFile != "" {
		if _, err := os.Stat(o.CAFile); err != nil {
			errs = append(errs, fmt.Errorf("--pod-webhook-ca-file: %w", err))
		}
	}
	return errs
}

// WebhookOptions are the registration the flags describe, with the CA file's contents.
func (o *PodWebhookRegistrationOptions) WebhookOptions() (podwebhook.WebhookOptions, error) {
	w := podwebhook.DefaultWebhookOptions()
	if o.URL != "" {
		w.ClientConfig.URL = ptr.To(o.URL)
	} else {
		ns, name, _ := strings.Cut(o.Service, "/")
		w.ClientConfig.Service = &admissionregistrationv1.ServiceReference{Namespace: ns, Name: name, Port: ptr.To(o.ServicePort)}
	}
	if o.CAFile != "" {
		ca, err := os.ReadFile(o.CAFile)
		if err != nil {
			return w, fmt.Errorf("--pod-webhook-ca-file: %w", err)
		}
		w.ClientConfig.CABundle = ca
	}
	w.FailurePolicy = admissionregistrationv1.FailurePolicyType(o.FailurePolicy)
	w.ValidatingFailurePolicy = admissionregistrationv1.FailurePolicyType(o.ValidatingFailurePolicy)
	w.Deletion.FailurePolicy = admissionregistrationv1.FailurePolicyType(o.DeletionFailurePolicy)
	w.TimeoutSeconds = o.TimeoutSeconds
	var err error
	if w.NamespaceSelector, err = parseSelector(o.NamespaceSelector, w.NamespaceSelector); err != nil {
		return w, fmt.Errorf("--pod-webhook-namespace-selector: %w", err)
	}
	if w.ObjectSelector, err = parseSelector(o.ObjectSelector, w.ObjectSelector); err != nil {
		return w, fmt.Errorf("--pod-webhook-object-selector: %w", err)
	}
	return w, nil
}

// parseSelector reads a LabelSelector from JSON or YAML; def when s is empty.
func parseSelector(s string, def *metav1.LabelSelector) (*metav1.LabelSelector, error) {
	if strings.TrimSpace(s) == "" {
		return def, nil
	}
	var sel metav1.LabelSelector
	if err := yaml.UnmarshalStrict([]byte(s), &sel); err != nil {
		return nil, fmt.Errorf("not a LabelSelector: %w", err)
	}
	if _, err := metav1.LabelSelectorAsSelector(&sel); err != nil {
		return nil, err
	}
	return &sel, nil
}
