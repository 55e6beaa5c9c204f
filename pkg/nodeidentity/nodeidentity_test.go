package nodeidentity

import (
	"testing"

	"k8s.io/apiserver/pkg/authentication/user"
)

func TestNodeOf(t *testing.T) {
	const daemon = "system:serviceaccount:kruise-system:kruise-node-daemon"
	bound := map[string][]string{"authentication.kubernetes.io/node-name": {"node-a"}}
	cases := []struct {
		name     string
		user     user.Info
		node     string
		isDaemon bool
	}{
		{"no user", nil, "", false},
		{"daemon bound to a node", &user.DefaultInfo{Name: daemon, Extra: bound}, "node-a", true},
		{"daemon in another namespace", &user.DefaultInfo{Name: "system:serviceaccount:other:kruise-node-daemon", Extra: bound}, "node-a", true},
		{"daemon with an unbound token", &user.DefaultInfo{Name: daemon}, "", true},
		{"daemon with two node names", &user.DefaultInfo{Name: daemon,
			Extra: map[string][]string{"authentication.kubernetes.io/node-name": {"node-a", "node-b"}}}, "", true},
		{"another service account bound to a node", &user.DefaultInfo{Name: "system:serviceaccount:kruise-system:kruise-controller", Extra: bound}, "", false},
		{"a user named like the account", &user.DefaultInfo{Name: "kruise-node-daemon", Extra: bound}, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			node, isDaemon := NodeOf(tc.user)
			if node != tc.node || isDaemon != tc.isDaemon {
				t.Errorf("NodeOf = %q, %v; want %q, %v", node, isDaemon, tc.node, tc.isDaemon)
			}
		})
	}
}
