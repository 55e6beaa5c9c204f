package localstack

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// kubectl runs BinDir/kubectl as cluster admin with stdin, returning its output on error.
func (s *Stack) kubectl(ctx context.Context, stdin []byte, args ...string) error {
	cmd := exec.CommandContext(ctx, s.bin("kubectl"), append([]string{"--kubeconfig", s.Kubeconfig()}, args...)...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("kubectl %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// ensureKruiseBase creates the namespace, then the same ServiceAccounts, delegation
// bindings and aggregated roles as a real cluster (artifacts/deploy/rbac), plus what only
// the local stack's programs need (hack/local/rbac: the simulated kubelet).
func (s *Stack) ensureKruiseBase(ctx context.Context) error {
	ns := fmt.Sprintf("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n", KruiseNamespace)
	if err := s.kubectl(ctx, []byte(ns), "apply", "-f", "-"); err != nil {
		return fmt.Errorf("cannot create namespace %s: %w", KruiseNamespace, err)
	}
	if err := s.kubectl(ctx, nil, "apply", "-k", filepath.Join(s.Root, "artifacts", "deploy", "rbac")); err != nil {
		return fmt.Errorf("cannot apply artifacts/deploy/rbac: %w", err)
	}
	local := filepath.Join(s.Root, "hack", "local", "rbac")
	if err := s.kubectl(ctx, nil, "apply", "-f", local); err != nil {
		return fmt.Errorf("cannot apply %s: %w", local, err)
	}
	return nil
}

// kruiseAPIServerArgs are the exact flags kruise-apiserver (or HA replica i) runs with.
// It serves HTTP/1.1 by default (pkg/apiserver/options), as in a cluster, so
// kube-apiserver calls this stack's loopback-URL Pod webhook over HTTP/1.1 too, as it
// calls the Service-referenced one of artifacts/deploy.
func (s *Stack) kruiseAPIServerArgs(name string, port int) ([]string, error) {
	kc := s.ComponentKubeconfig(name)
	args := []string{
		"--secure-port=" + strconv.Itoa(port),
		"--bind-address=127.0.0.1",
		"--tls-cert-file=" + s.PKI("kruise-apiserver-serving.crt"),
		"--tls-private-key-file=" + s.PKI("kruise-apiserver-serving.key"),
		"--kubeconfig=" + kc,
		"--authentication-kubeconfig=" + kc,
		"--authorization-kubeconfig=" + kc,
		// kruise-apiserver registers its own Pod webhook, as in a cluster but at a
		// loopback URL (a Service cannot point at loopback): the load balancer in front
		// of the HA replicas, or the one server. kube-apiserver verifies it with the
		// local kruise CA and presents its webhook client certificate to that host:port
		// (hack/local-up.sh's --admission-control-config-file). Owned by ClusterRole
		// kruise-apiserver, as in a cluster.
		"--pod-webhook-url=https://127.0.0.1:" + strconv.Itoa(s.Ports.KruiseAPIServer),
		"--pod-webhook-ca-file=" + s.PKI("kruise-ca.crt"),
		"--pod-webhook-registration-owner=kruise-apiserver",
		"--pod-webhook-failure-policy=" + s.PodWebhookFailurePolicy,
		"--pod-webhook-validating-failure-policy=" + s.PodWebhookFailurePolicy,
	}
	if s.HA {
		// the etcd cluster, over TLS with a client certificate, as artifacts/deploy
		var servers []string
		for _, m := range s.Ports.EtcdMembers {
			servers = append(servers, fmt.Sprintf("https://127.0.0.1:%d", m.Client))
		}
		args = append(args,
			"--etcd-servers="+strings.Join(servers, ","),
			"--etcd-cafile="+s.PKI("etcd-ca.crt"),
			"--etcd-certfile="+s.PKI("etcd-client.crt"),
			"--etcd-keyfile="+s.PKI("etcd-client.key"),
		)
	} else {
		dir := filepath.Join(s.LocalDir, "kruise-etcd")
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		args = append(args,
			"--embedded-etcd-data-dir="+dir,
			"--embedded-etcd-client-port="+strconv.Itoa(s.Ports.KruiseEtcd),
			"--embedded-etcd-peer-port="+strconv.Itoa(s.Ports.KruiseEtcdPeer),
			"--embedded-etcd-unsafe-no-fsync",
		)
	}
	return append(args, s.KruiseAPIServerArgs...), nil
}

// kruiseAPIServerPort is the secure port of kruise-apiserver or of the HA replica name.
func (s *Stack) kruiseAPIServerPort(name string) int {
	if _, i, ok := splitReplica(name); ok {
		return s.Ports.KruiseAPIServerReplicas[i]
	}
	return s.Ports.KruiseAPIServer
}

// startKruiseAPIServer starts kruise-apiserver, or the HA replica name, and waits for /readyz.
func (s *Stack) startKruiseAPIServer(ctx context.Context, name string) error {
	if err := s.tokenKubeconfig(ctx, name, "kruise-apiserver", ""); err != nil {
		return err
	}
	args, err := s.kruiseAPIServerArgs(name, s.kruiseAPIServerPort(name))
	if err != nil {
		return err
	}
	if err := s.startProcess(name, s.bin(KruiseAPIServer), nil, args...); err != nil {
		return err
	}
	return s.waitReady(ctx, name, "/readyz", s.kruiseAPIServerReadyz(name))
}

// KruiseAPIServerCommand is the binary and the exact flags kruise-apiserver (or the HA
// replica name) runs with, for a test that runs the process itself; the component must
// have been started once (its kubeconfig exists).
func (s *Stack) KruiseAPIServerCommand(name string) (string, []string, error) {
	args, err := s.kruiseAPIServerArgs(name, s.kruiseAPIServerPort(name))
	return s.bin(KruiseAPIServer), args, err
}

// KruiseAPIServerReady asks kruise-apiserver (or the HA replica name) for /readyz once,
// as the stack does when it starts it.
func (s *Stack) KruiseAPIServerReady(ctx context.Context, name string) error {
	return s.kruiseAPIServerReadyz(name)(ctx)
}

func (s *Stack) kruiseAPIServerReadyz(name string) func(context.Context) error {
	check, err := s.httpCheck(fmt.Sprintf("https://127.0.0.1:%d/readyz", s.kruiseAPIServerPort(name)), "kruise-ca.crt", "admin")
	if err != nil {
		return func(context.Context) error { return err }
	}
	return check
}

// startKruiseController starts kruise-controller, or the HA replica name (they elect a
// leader through a Lease), and waits for /healthz.
func (s *Stack) startKruiseController(ctx context.Context, name string) error {
	port := s.Ports.KruiseController
	if _, i, ok := splitReplica(name); ok {
		port = s.Ports.KruiseControllerReplicas[i]
	}
	if err := s.tokenKubeconfig(ctx, name, "kruise-controller", ""); err != nil {
		return err
	}
	args := append([]string{
		"--kubeconfig=" + s.ComponentKubeconfig(name),
		fmt.Sprintf("--bind-address=127.0.0.1:%d", port),
	}, s.KruiseControllerArgs...)
	if err := s.startProcess(name, s.bin(KruiseController), nil, args...); err != nil {
		return err
	}
	check, _ := s.httpCheck(fmt.Sprintf("http://127.0.0.1:%d/healthz", port), "", "")
	return s.waitReady(ctx, name, "/healthz", check)
}

// startNodeDaemon starts the daemon of a node: it runs the node's fake container runtime
// and kubelet simulator in process on LOCAL_DIR/cri/<node>.sock. Wait with waitNodeDaemons.
func (s *Stack) startNodeDaemon(ctx context.Context, node string) error {
	name := NodeDaemonPrefix + node
	if err := s.tokenKubeconfig(ctx, name, "kruise-node-daemon", node); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(s.LocalDir, "cri"), 0o755); err != nil {
		return err
	}
	port := s.Ports.NodeDaemons[name] // 0: a free port
	args := append([]string{
		"--kubeconfig=" + s.ComponentKubeconfig(name),
		"--fake-runtime-socket=" + filepath.Join(s.LocalDir, "cri", node+".sock"),
		fmt.Sprintf("--bind-address=127.0.0.1:%d", port),
	}, s.KruiseNodeDaemonArgs...)
	return s.startProcess(name, s.bin(NodeDaemonBin), []string{"NODE_NAME=" + node}, args...)
}

// waitNodeDaemons waits for /readyz (runtime answers, informers synced) of each daemon
// with a known port, one line for all; the others only have to keep running.
func (s *Stack) waitNodeDaemons(ctx context.Context, names ...string) error {
	var ports, others []string
	for _, n := range names {
		p, ok := s.Ports.NodeDaemons[n]
		if !ok {
			others = append(others, n)
			continue
		}
		check, _ := s.httpCheck(fmt.Sprintf("http://127.0.0.1:%d/readyz", p), "", "")
		if err := s.poll(ctx, n, "/readyz", check); err != nil {
			return err
		}
		ports = append(ports, strconv.Itoa(p))
	}
	if len(ports) > 0 {
		s.logf("%d node daemon(s) ready (/readyz on ports %s)", len(ports), strings.Join(ports, " "))
	}
	if len(others) > 0 {
		return s.waitAlive(others...)
	}
	return nil
}

// servedAPIServices returns the KruiseAPIServices whose group/version kruise-apiserver
// serves (from its /apis). Polled: it answers 503 until it trusts the cluster's client
// CAs (pkg/apiserver/authngate).
func (s *Stack) servedAPIServices(ctx context.Context, name string) ([]string, error) {
	c, err := s.tlsClient("kruise-ca.crt", "admin")
	if err != nil {
		return nil, err
	}
	url := fmt.Sprintf("https://127.0.0.1:%d/apis", s.Ports.KruiseAPIServer)
	var groups metav1.APIGroupList
	err = s.poll(ctx, name, "its /apis", func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("GET %s: %s", url, resp.Status)
		}
		return json.NewDecoder(resp.Body).Decode(&groups)
	})
	if err != nil {
		return nil, err
	}
	served := map[string]bool{}
	for _, g := range groups.Groups {
		for _, v := range g.Versions {
			served[v.GroupVersion] = true
		}
	}
	var out []string
	for _, a := range KruiseAPIServices {
		version, group, _ := strings.Cut(a, ".")
		if served[group+"/"+version] {
			out = append(out, a)
		}
	}
	return out, nil
}

// ensureAPIServices registers the group/versions kruise-apiserver serves. It runs on this
// host: an ExternalName Service makes the aggregator dial localhost:<port> (with HA the
// load balancer) and verify the certificate for kruise-apiserver.kruise-system.svc. An
// APIService without a server breaks discovery, and with it namespace deletion and
// garbage collection cluster-wide, so the others are removed.
func (s *Stack) ensureAPIServices(ctx context.Context, component string) error {
	served, err := s.servedAPIServices(ctx, component)
	if err != nil {
		return err
	}
	ca, err := os.ReadFile(s.PKI("kruise-ca.crt"))
	if err != nil {
		return err
	}
	isServed := map[string]bool{}
	for _, v := range served {
		isServed[v] = true
	}
	for _, v := range KruiseAPIServices {
		if !isServed[v] {
			version, group, _ := strings.Cut(v, ".")
			s.logf("WARNING: kruise-apiserver does not serve %s/%s; APIService %s not registered", group, version, v)
			_ = s.kubectl(ctx, nil, "delete", "apiservice", v, "--ignore-not-found")
		}
	}
	if len(served) == 0 {
		return s.failComponent(component, "serves none of "+strings.Join(KruiseAPIServices, " "))
	}
	p := s.Ports.KruiseAPIServer
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: v1
kind: Service
metadata:
  name: %s
  namespace: %s
spec:
  type: ExternalName
  externalName: localhost
  ports:
  - name: https
    port: %d
    targetPort: %d
    protocol: TCP
`, kruiseService, KruiseNamespace, p, p)
	for _, v := range served {
		// within a group the highest versionPriority is the preferred version: v1beta1.
		// groupPriorityMinimum 1000 stays below the built-in groups, so `kubectl get
		// statefulsets` keeps meaning apps/v1, as with CRDs.
		version, group, _ := strings.Cut(v, ".")
		prio := 50
		if version == "v1beta1" {
			prio = 100
		}
		fmt.Fprintf(&b, `---
apiVersion: apiregistration.k8s.io/v1
kind: APIService
metadata:
  name: %s
  labels:
    app.kubernetes.io/part-of: kruise-native
spec:
  group: %s
  version: %s
  groupPriorityMinimum: 1000
  versionPriority: %d
  service:
    name: %s
    namespace: %s
    port: %d
  caBundle: %s
`, v, group, version, prio, kruiseService, KruiseNamespace, p, base64.StdEncoding.EncodeToString(ca))
	}
	if err := s.kubectl(ctx, []byte(b.String()), "apply", "-f", "-"); err != nil {
		return fmt.Errorf("cannot create the kruise APIServices: %w", err)
	}
	return nil
}

func (s *Stack) removeAPIServices(ctx context.Context) {
	_ = s.kubectl(ctx, nil, append([]string{"delete", "apiservice", "--ignore-not-found"}, KruiseAPIServices...)...)
}

// waitAPIServices waits until every registered Kruise APIService is Available.
func (s *Stack) waitAPIServices(ctx context.Context, component string) error {
	c, err := s.adminClient()
	if err != nil {
		return err
	}
	var registered []string
	for _, v := range KruiseAPIServices {
		if err := c.Discovery().RESTClient().Get().AbsPath("/apis/apiregistration.k8s.io/v1/apiservices", v).Do(ctx).Error(); err == nil {
			registered = append(registered, v)
		}
	}
	if len(registered) == 0 {
		return nil
	}
	s.logf("waiting for APIServices %s to be Available", strings.Join(registered, " "))
	for _, v := range registered {
		v := v
		err := s.poll(ctx, component, "APIService "+v+" Available", func(ctx context.Context) error {
			ok, msg, err := s.APIServiceAvailable(ctx, v)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("APIService %s not Available: %s", v, msg)
			}
			return nil
		})
		if err != nil {
			return err
		}
		// Available is written by kube-apiserver's availability controller; its proxy
		// learns it through an informer a moment later, and answers 503 until then
		version, group, _ := strings.Cut(v, ".")
		err = s.poll(ctx, component, "kube-apiserver to serve "+group+"/"+version, func(ctx context.Context) error {
			return c.Discovery().RESTClient().Get().AbsPath("/apis", group, version).Do(ctx).Error()
		})
		if err != nil {
			return err
		}
	}
	s.logf("APIServices Available")
	return nil
}

// APIServiceAvailable reports whether the APIService's Available condition is True, and
// its message otherwise.
func (s *Stack) APIServiceAvailable(ctx context.Context, name string) (bool, string, error) {
	c, err := s.adminClient()
	if err != nil {
		return false, "", err
	}
	raw, err := c.Discovery().RESTClient().Get().AbsPath("/apis/apiregistration.k8s.io/v1/apiservices", name).DoRaw(ctx)
	if err != nil {
		return false, "", err
	}
	var obj struct {
		Status struct {
			Conditions []metav1.Condition `json:"conditions"`
		} `json:"status"`
	}
	if err := json.Unmarshal(raw, &obj); err != nil {
		return false, "", err
	}
	for _, cond := range obj.Status.Conditions {
		if cond.Type == "Available" {
			return cond.Status == metav1.ConditionTrue, cond.Message, nil
		}
	}
	return false, "no Available condition yet", nil
}
