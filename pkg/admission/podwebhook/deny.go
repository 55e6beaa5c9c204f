package podwebhook

import (
	"errors"
	"net/http"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// refusal is a handler's decision that the request must not go ahead. It is a type of
// its own, not any error carrying an API status, so that a NotFound from a client
// call a handler makes is an error (the failurePolicy decides), never a denial.
type refusal struct {
	status metav1.Status
}

func (r *refusal) Error() string { return r.status.Message }

// Deny refuses the request with err's API status (code, reason, causes), or with 403
// Forbidden and err's message when it has none.
func Deny(err error) error {
	var status apierrors.APIStatus
	if errors.As(err, &status) {
		return &refusal{status: status.Status()}
	}
	return DenyWith(http.StatusForbidden, metav1.StatusReasonForbidden, err.Error())
}

// DenyWith refuses the request with the HTTP code, reason and message kube-apiserver
// returns to the client (e.g. 429 TooManyRequests when a disruption budget is spent).
func DenyWith(code int32, reason metav1.StatusReason, message string) error {
	return &refusal{status: metav1.Status{Status: metav1.StatusFailure, Code: code, Reason: reason, Message: message}}
}

// asRefusal returns the status of a refusal in err's chain.
func asRefusal(err error) (*metav1.Status, bool) {
	var r *refusal
	if !errors.As(err, &r) {
		return nil, false
	}
	s := r.status
	return &s, true
}
