package cluster

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/kruise-native/kruise-native/test/cluster/harness"
)

// waitPodRunning waits until the pod runs with every container ready, and returns it.
func waitPodRunning(ctx context.Context, cs kubernetes.Interface, ns, name string, timeout time.Duration) (*corev1.Pod, error) {
	var pod *corev1.Pod
	err := harness.WaitFor(ctx, timeout, 500*time.Millisecond, "pod "+ns+"/"+name+" running and ready", func(ctx context.Context) error {
		p, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		pod = p
		if p.Status.Phase != corev1.PodRunning {
			return fmt.Errorf("phase %s %s", p.Status.Phase, harness.PodWhy(p))
		}
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady && c.Status != corev1.ConditionTrue {
				return fmt.Errorf("not ready: %s", harness.PodWhy(p))
			}
		}
		return nil
	})
	return pod, err
}

// appSays asks testapp in the pod at ip which image it runs, from the node.
func appSays(ctx context.Context, ip string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+ip+"/", nil)
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(b)), err
}

// deletePodAndWait deletes a pod and waits until it is gone (kubelet stopped it).
func deletePodAndWait(ctx context.Context, cs kubernetes.Interface, ns, name string) error {
	if err := cs.CoreV1().Pods(ns).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		return err
	}
	return harness.WaitFor(ctx, 90*time.Second, 250*time.Millisecond, "pod "+ns+"/"+name+" gone", func(ctx context.Context) error {
		_, err := cs.CoreV1().Pods(ns).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("still there")
	})
}

// appState is what testapp answers: the image it was started from, when, and its
// APP_CONFIG.
type appState struct {
	Image, Started, AppConfig string
}

var appLine = regexp.MustCompile(`^image=(\S+) pid=\d+ started=(\S+) APP_CONFIG=(".*")$`)

// appAt asks the testapp of the pod at ip what it runs.
func appAt(ctx context.Context, ip string) (appState, error) {
	says, err := appSays(ctx, ip)
	if err != nil {
		return appState{}, err
	}
	m := appLine.FindStringSubmatch(says)
	if m == nil {
		return appState{}, fmt.Errorf("testapp at %s says %q", ip, says)
	}
	cfg, err := strconv.Unquote(m[3])
	if err != nil {
		return appState{}, err
	}
	return appState{Image: m[1], Started: m[2], AppConfig: cfg}, nil
}

// podsOf lists the pods of ns matching the label selector, by name.
func podsOf(ctx context.Context, cs kubernetes.Interface, ns, selector string) (map[string]corev1.Pod, error) {
	l, err := cs.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, err
	}
	out := map[string]corev1.Pod{}
	for _, p := range l.Items {
		out[p.Name] = p
	}
	return out, nil
}

// containerStatus returns the status of the named container.
func containerStatus(p *corev1.Pod, name string) corev1.ContainerStatus {
	for _, s := range p.Status.ContainerStatuses {
		if s.Name == name {
			return s
		}
	}
	return corev1.ContainerStatus{}
}

// waitNoPods waits until no pod matches the selector in ns.
func waitNoPods(ctx context.Context, cs kubernetes.Interface, ns, selector string) error {
	return harness.WaitFor(ctx, 2*time.Minute, 500*time.Millisecond, "no pods "+selector+" in "+ns, func(ctx context.Context) error {
		pods, err := podsOf(ctx, cs, ns, selector)
		if err != nil {
			return err
		}
		if len(pods) > 0 {
			return fmt.Errorf("%d left", len(pods))
		}
		return nil
	})
}

// eventsFor returns the reasons of the events about an object.
func eventsFor(ctx context.Context, cs kubernetes.Interface, ns, kind, name string) ([]string, error) {
	l, err := cs.CoreV1().Events(ns).List(ctx, metav1.ListOptions{
		FieldSelector: "involvedObject.kind=" + kind + ",involvedObject.name=" + name,
	})
	if err != nil {
		return nil, err
	}
	var reasons []string
	for _, e := range l.Items {
		reasons = append(reasons, e.Reason)
	}
	return reasons, nil
}

// dumpPods logs what a failure's diagnosis needs about the pods matching selector.
func (s *suite) dumpPods(t *testing.T, ns, selector string) {
	t.Helper()
	pods, err := podsOf(context.Background(), s.c.Client, ns, selector)
	if err != nil {
		t.Logf("listing pods %s: %v", selector, err)
		return
	}
	for name, p := range pods {
		var b strings.Builder
		fmt.Fprintf(&b, "pod %s uid %s ip %s phase %s deleting %v labels %v", name, p.UID, p.Status.PodIP, p.Status.Phase, p.DeletionTimestamp != nil, p.Labels)
		for _, c := range p.Spec.Containers {
			st := containerStatus(&p, c.Name)
			fmt.Fprintf(&b, "\n  %s: spec %s status %s id %s restarts %d ready %v running %v", c.Name, c.Image, st.Image, st.ContainerID, st.RestartCount, st.Ready, st.State.Running != nil)
		}
		for _, c := range p.Status.Conditions {
			fmt.Fprintf(&b, "\n  condition %s=%s %s %s", c.Type, c.Status, c.Reason, c.Message)
		}
		for k, v := range p.Annotations {
			if strings.Contains(k, "kruise") {
				fmt.Fprintf(&b, "\n  %s: %s", k, v)
			}
		}
		t.Log(b.String())
	}
}
