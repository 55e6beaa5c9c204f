package validation

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apimachineryvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateProbe checks a PodProbeMarker's (or NodePodProbe's) probe: exactly one of
// exec, httpGet and tcpSocket (the node daemon runs no gRPC probes), and the
// numbers a kubelet would accept. It runs on defaulted objects, so unset numbers
// already have kube's defaults.
func validateProbe(p *corev1.Probe, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	handlers := 0
	if p.Exec != nil {
		handlers++
		if len(p.Exec.Command) == 0 {
			allErrs = append(allErrs, field.Required(fldPath.Child("exec", "command"), ""))
		}
	}
	if p.HTTPGet != nil {
		handlers++
		allErrs = append(allErrs, validateProbePort(p.HTTPGet.Port, fldPath.Child("httpGet", "port"))...)
		if s := p.HTTPGet.Scheme; s != corev1.URISchemeHTTP && s != corev1.URISchemeHTTPS {
			allErrs = append(allErrs, field.NotSupported(fldPath.Child("httpGet", "scheme"), s,
				[]corev1.URIScheme{corev1.URISchemeHTTP, corev1.URISchemeHTTPS}))
		}
		for i, h := range p.HTTPGet.HTTPHeaders {
			for _, msg := range validation.IsHTTPHeaderName(h.Name) {
				allErrs = append(allErrs, field.Invalid(fldPath.Child("httpGet", "httpHeaders").Index(i).Child("name"), h.Name, msg))
			}
		}
	}
	if p.TCPSocket != nil {
		handlers++
		allErrs = append(allErrs, validateProbePort(p.TCPSocket.Port, fldPath.Child("tcpSocket", "port"))...)
	}
	if p.GRPC != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("grpc"), "not supported: use exec, httpGet or tcpSocket"))
	}
	switch {
	case handlers == 0 && p.GRPC == nil:
		allErrs = append(allErrs, field.Required(fldPath, "one of exec, httpGet and tcpSocket"))
	case handlers > 1:
		allErrs = append(allErrs, field.Forbidden(fldPath, "may not specify more than one of exec, httpGet and tcpSocket"))
	}
	allErrs = append(allErrs, apimachineryvalidation.ValidateNonnegativeField(int64(p.InitialDelaySeconds), fldPath.Child("initialDelaySeconds"))...)
	for _, n := range []struct {
		name  string
		value int32
	}{
		{"timeoutSeconds", p.TimeoutSeconds}, {"periodSeconds", p.PeriodSeconds},
		{"successThreshold", p.SuccessThreshold}, {"failureThreshold", p.FailureThreshold},
	} {
		if n.value < 1 {
			allErrs = append(allErrs, field.Invalid(fldPath.Child(n.name), n.value, "must be at least 1"))
		}
	}
	if p.TerminationGracePeriodSeconds != nil {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("terminationGracePeriodSeconds"),
			"a marker probe never kills a container"))
	}
	return allErrs
}

// validateProbePort accepts a port number or an IANA service name (resolved against the
// container's ports when the probe runs).
func validateProbePort(port intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	if port.Type == intstr.String {
		var allErrs field.ErrorList
		for _, msg := range validation.IsValidPortName(port.StrVal) {
			allErrs = append(allErrs, field.Invalid(fldPath, port.StrVal, msg))
		}
		return allErrs
	}
	if msgs := validation.IsValidPortNum(int(port.IntVal)); len(msgs) > 0 {
		return field.ErrorList{field.Invalid(fldPath, port.IntVal, fmt.Sprint(msgs[0]))}
	}
	return nil
}
