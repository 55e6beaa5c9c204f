package syncerror

import (
	"errors"
	"fmt"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestConditionMessage(t *testing.T) {
	pods := schema.GroupResource{Resource: "pods"}
	quota := func(name string) error {
		return apierrors.NewForbidden(pods, name, errors.New("exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0"))
	}
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"plain error kept", errors.New("no revision"), "no revision"},
		{
			"forbidden create, wrapped",
			fmt.Errorf("creating pod: %w", quota("cs-demo-x7k2p")),
			"creating pod: pods is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0",
		},
		{
			"joined errors of a parallel batch",
			errors.Join(fmt.Errorf("creating pod: %w", quota("cs-a")), fmt.Errorf("creating pod: %w", quota("cs-b"))),
			"creating pod: pods is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0\n" +
				"creating pod: pods is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ConditionMessage(tc.err); got != tc.want {
				t.Errorf("ConditionMessage() = %q, want %q", got, tc.want)
			}
		})
	}
}

// Two attempts that differ only in the generated name give one message: the property
// the status writers rely on to stay quiet while a failure repeats.
func TestConditionMessageStableAcrossAttempts(t *testing.T) {
	attempt := func(name string) error {
		return fmt.Errorf("creating pod: %w", apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, name, errors.New("exceeded quota: q")))
	}
	if a, b := ConditionMessage(attempt("cs-aaaaa")), ConditionMessage(attempt("cs-bbbbb")); a != b {
		t.Fatalf("messages differ between attempts: %q vs %q", a, b)
	}
}
