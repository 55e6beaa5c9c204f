package installhooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/util/retry"
)

// apiServices is the resource of kube-aggregator's APIService (read and written as
// unstructured objects: only spec.caBundle and the Available condition matter here).
var apiServices = schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"}

// RegisterOptions say what register-apiservices waits for and writes.
type RegisterOptions struct {
	// Manifests is a file of APIService objects (the chart's ConfigMap).
	Manifests string
	// Namespace and Service name kruise-apiserver's Service, whose EndpointSlices must
	// have a Ready endpoint first.
	Namespace, Service string
	// CASecret is the Secret in Namespace whose ca.crt signed the serving certificate.
	CASecret string
	// Timeout bounds each wait: for a Ready endpoint, then for Available.
	Timeout time.Duration
	// Interval between polls.
	Interval time.Duration
	// Out receives one line per step, for the Job's log.
	Out io.Writer
	// LeaveCRDServed makes a group/version that CRDs serve (OpenKruise's) a success that
	// registers nothing, instead of an error: the install beside OpenKruise that
	// `kubectl kruise migrate-from-crds` then switches over. Either way nothing is
	// registered while any of the groups is CRD-served, so that no half of the API moves.
	LeaveCRDServed bool
}

// ReadAPIServices reads the APIService objects of a manifest file; anything else in it
// is an error, so that the hook can never be made to write other kinds.
func ReadAPIServices(path string) ([]*unstructured.Unstructured, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
	var out []*unstructured.Unstructured
	for {
		var obj map[string]interface{}
		if err := dec.Decode(&obj); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if obj == nil {
			continue
		}
		u := &unstructured.Unstructured{Object: obj}
		if u.GroupVersionKind() != (schema.GroupVersionKind{Group: apiServices.Group, Version: apiServices.Version, Kind: "APIService"}) {
			return nil, fmt.Errorf("%s: %s %s is not an apiregistration.k8s.io/v1 APIService", path, u.GetKind(), u.GetName())
		}
		out = append(out, u)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no APIService", path)
	}
	return out, nil
}

// Register waits until kruise-apiserver has a Ready endpoint, then creates or updates
// every APIService of o.Manifests with the serving CA as caBundle, and waits until all
// are Available. Those that are not Available in time are deleted again (an APIService
// without a server breaks discovery for everybody) and an error says why.
func Register(ctx context.Context, kube kubernetes.Interface, dyn dynamic.Interface, o RegisterOptions) error {
	want, err := ReadAPIServices(o.Manifests)
	if err != nil {
		return err
	}
	say := func(format string, args ...interface{}) { fmt.Fprintf(o.Out, format+"\n", args...) }
	if err := refuseCRDServed(ctx, dyn, want); err != nil {
		if errors.Is(err, errCRDServed) && o.LeaveCRDServed {
			say("%v", err)
			say("left for `kubectl kruise migrate-from-crds` (installHooks.whenCRDsServe=leave): nothing was registered")
			return nil
		}
		return err
	}

	say("waiting up to %s for a Ready endpoint of Service %s/%s", o.Timeout, o.Namespace, o.Service)
	if err := poll(ctx, o.Interval, o.Timeout, func(ctx context.Context) (bool, error) {
		return readyEndpoint(ctx, kube, o.Namespace, o.Service)
	}); err != nil {
		return fmt.Errorf("kruise-apiserver (Service %s/%s) has no Ready endpoint after %s; the APIServices were not registered, so the cluster's discovery is unaffected: "+
			"check `kubectl -n %s get pods` and the kruise-apiserver logs: %w", o.Namespace, o.Service, o.Timeout, o.Namespace, err)
	}

	secret, err := kube.CoreV1().Secrets(o.Namespace).Get(ctx, o.CASecret, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("reading the serving CA: %w", err)
	}
	ca := secret.Data["ca.crt"]
	if len(ca) == 0 {
		return fmt.Errorf("Secret %s/%s has no ca.crt: the APIServices could not verify kruise-apiserver", o.Namespace, o.CASecret)
	}
	for _, a := range want {
		if err := apply(ctx, dyn, a, ca); err != nil {
			return err
		}
		say("APIService %s registered", a.GetName())
	}

	say("waiting up to %s for the APIServices to be Available", o.Timeout)
	var missing []string
	err = poll(ctx, o.Interval, o.Timeout, func(ctx context.Context) (bool, error) {
		missing = missing[:0]
		for _, a := range want {
			ok, msg, err := available(ctx, dyn, a.GetName())
			if err != nil {
				return false, err
			}
			if !ok {
				missing = append(missing, a.GetName()+" ("+msg+")")
			}
		}
		return len(missing) == 0, nil
	})
	if err == nil {
		say("all %d APIServices are Available", len(want))
		return nil
	}
	// Back out: leave no APIService that makes discovery fail.
	names := make([]string, 0, len(want))
	for _, a := range want {
		names = append(names, a.GetName())
	}
	if derr := Unregister(ctx, dyn, names, o.Out); derr != nil {
		return errors.Join(fmt.Errorf("APIServices not Available after %s: %s: %w", o.Timeout, strings.Join(missing, "; "), err), derr)
	}
	return fmt.Errorf("APIServices not Available after %s: %s; they were removed again so that discovery keeps working. Fix the cause (kruise-apiserver's logs, its certificate, the network from kube-apiserver to the Service) and run helm upgrade, or helm uninstall: %w",
		o.Timeout, strings.Join(missing, "; "), err)
}

// errCRDServed marks refuseCRDServed's refusal.
var errCRDServed = errors.New("is served by this cluster's CustomResourceDefinitions (OpenKruise)")

// refuseCRDServed refuses to take over a group/version that CRDs serve (OpenKruise's): its
// APIService is kube-aggregator's local one. Pointing it at a kruise-apiserver that does
// not hold those objects would make the garbage collector find every pod's owner
// missing and delete the pods; `kubectl kruise migrate-from-crds` moves the objects
// first and then switches the APIServices itself.
func refuseCRDServed(ctx context.Context, dyn dynamic.Interface, want []*unstructured.Unstructured) error {
	for _, a := range want {
		cur, err := dyn.Resource(apiServices).Get(ctx, a.GetName(), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("reading APIService %s: %w", a.GetName(), err)
		}
		if _, found, _ := unstructured.NestedMap(cur.Object, "spec", "service"); !found {
			return fmt.Errorf("APIService %s %w; registering kruise-apiserver in their place would hide their objects, and the garbage collector would delete the pods they own. "+
				"Nothing was registered: kruise-apiserver runs unregistered; move the objects and switch with `kubectl kruise migrate-from-crds` (README, \"Moving from OpenKruise\"), then `helm upgrade`", a.GetName(), errCRDServed)
		}
	}
	return nil
}

// readyEndpoint tells whether a Service's EndpointSlices hold a Ready endpoint.
func readyEndpoint(ctx context.Context, kube kubernetes.Interface, namespace, service string) (bool, error) {
	slices, err := kube.DiscoveryV1().EndpointSlices(namespace).List(ctx, metav1.ListOptions{LabelSelector: discoveryv1.LabelServiceName + "=" + service})
	if err != nil {
		return false, err
	}
	for _, s := range slices.Items {
		for _, e := range s.Endpoints {
			// A nil ready is to be read as ready (the EndpointSlice API's rule).
			if e.Conditions.Ready == nil || *e.Conditions.Ready {
				return true, nil
			}
		}
	}
	return false, nil
}

// apply creates a or updates the stored one to a's spec, with caBundle ca.
func apply(ctx context.Context, dyn dynamic.Interface, a *unstructured.Unstructured, ca []byte) error {
	desired := a.DeepCopy()
	spec, _, _ := unstructured.NestedMap(desired.Object, "spec")
	if spec == nil {
		spec = map[string]interface{}{}
	}
	delete(spec, "insecureSkipTLSVerify")
	spec["caBundle"] = encodeBytes(ca)
	if err := unstructured.SetNestedMap(desired.Object, spec, "spec"); err != nil {
		return err
	}
	client := dyn.Resource(apiServices)
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		cur, err := client.Get(ctx, desired.GetName(), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			_, err = client.Create(ctx, desired, metav1.CreateOptions{})
			return wrap(err, "creating APIService "+desired.GetName())
		}
		if err != nil {
			return err
		}
		next := cur.DeepCopy()
		next.Object["spec"] = desired.Object["spec"]
		labels := next.GetLabels()
		for k, v := range desired.GetLabels() {
			if labels == nil {
				labels = map[string]string{}
			}
			labels[k] = v
		}
		next.SetLabels(labels)
		_, err = client.Update(ctx, next, metav1.UpdateOptions{})
		return wrap(err, "updating APIService "+desired.GetName())
	})
}

// available reads an APIService's Available condition and its message.
func available(ctx context.Context, dyn dynamic.Interface, name string) (bool, string, error) {
	a, err := dyn.Resource(apiServices).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return false, "", err
	}
	conds, _, _ := unstructured.NestedSlice(a.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]interface{})
		if m["type"] == "Available" {
			msg := fmt.Sprint(m["reason"])
			if s, ok := m["message"].(string); ok && s != "" {
				msg += ": " + s
			}
			return m["status"] == "True", msg, nil
		}
	}
	return false, "no Available condition yet", nil
}

// Unregister deletes the named APIServices (those that exist).
func Unregister(ctx context.Context, dyn dynamic.Interface, names []string, out io.Writer) error {
	var errs []error
	for _, n := range names {
		err := dyn.Resource(apiServices).Delete(ctx, n, metav1.DeleteOptions{})
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			errs = append(errs, fmt.Errorf("deleting APIService %s: %w", n, err))
		default:
			fmt.Fprintf(out, "APIService %s removed\n", n)
		}
	}
	return errors.Join(errs...)
}

// poll calls cond every interval until it is true, fails, or timeout passes; the
// last error of a failed condition is kept for the message.
func poll(ctx context.Context, interval, timeout time.Duration, cond func(context.Context) (bool, error)) error {
	var last error
	err := wait.PollUntilContextTimeout(ctx, interval, timeout, true, func(ctx context.Context) (bool, error) {
		ok, err := cond(ctx)
		if err != nil {
			last = err // transient: the API may be starting; keep trying until the deadline
			return false, nil
		}
		return ok, nil
	})
	if err != nil && last != nil {
		return fmt.Errorf("%w (last error: %v)", err, last)
	}
	return err
}

func wrap(err error, what string) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}
