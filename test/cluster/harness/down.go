package harness

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Down takes the cluster down and restores the host, in the order that leaves nothing
// behind: pods first, while kubelet still runs (it stops their containers and runs the
// CNI DEL of each sandbox), then kubelet and kube-proxy, the sandboxes kubelet left,
// containerd, the control plane; then the host: leftover processes and mounts, the
// KUBE-*/CNI-* iptables chains, the bridge and node device, the kubepods cgroups,
// files in system directories, sysctls. It ends by comparing the host with the snapshot
// taken before Up and fails when they differ. Safe to call more than once.
func (c *Cluster) Down(ctx context.Context) error {
	c.downOnce.Do(func() { c.downErr = c.down(ctx) })
	return c.downErr
}

func (c *Cluster) down(ctx context.Context) error {
	if c.sigStop != nil {
		close(c.sigStop)
	}
	begin := time.Now()
	var errs []error
	note := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	stop := func(names ...string) {
		for _, n := range names {
			if p := c.procs[n]; p != nil {
				d := p.Stop(30 * time.Second)
				c.logf("teardown: stopped %s in %s", n, d.Round(10*time.Millisecond))
			}
		}
	}
	if c.Client != nil && c.procs["kubelet"] != nil {
		note(c.Step("teardown: delete every pod (kubelet stops them)", func() error {
			// No new pods: the controllers and the scheduler go first.
			stop("kube-controller-manager", "kube-scheduler")
			// kruise-system first: its webhooks (a PodUnavailableBudget) could refuse
			// the other deletions while it serves; once it is gone they fail open.
			if err := c.deletePods(ctx, "kruise-system"); err != nil {
				return err
			}
			return c.deletePods(ctx, "")
		}))
	}
	note(c.Step("teardown: stop node and control plane", func() error {
		stop("kube-proxy", "kubelet")
		if n := c.removeSandboxes(ctx); n > 0 {
			c.logf("teardown: removed %d sandboxes kubelet left", n)
		}
		stop("containerd")
		if c.cri != nil {
			_ = c.cri.Close()
		}
		stop("kube-controller-manager", "kube-scheduler", "kube-apiserver", "etcd", "outside-etcd")
		if c.Registry != nil {
			c.Registry.close()
		}
		return nil
	}))
	if c.before != nil {
		note(c.Step("teardown: restore the host", func() error {
			if rerrs := restoreHost(c.Layout, c.before, c.logf); len(rerrs) > 0 {
				return errors.Join(rerrs...)
			}
			return finishRestore(c.before, c.logf)
		}))
	}
	c.logf("teardown took %s", time.Since(begin).Round(100*time.Millisecond))
	return errors.Join(errs...)
}

// deletePods deletes the pods of a namespace ("": all), with a short grace period, and
// waits until kubelet has confirmed each deletion (their containers are stopped and
// their sandboxes torn down). Pods still there after 60s lose their finalizers (their
// controller may be gone) and are deleted at once.
func (c *Cluster) deletePods(ctx context.Context, ns string) error {
	grace := int64(2)
	pods := c.Client.CoreV1().Pods(ns)
	list, err := pods.List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	if len(list.Items) == 0 {
		return nil
	}
	for _, p := range list.Items {
		err := c.Client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &grace})
		if err != nil {
			c.logf("teardown: deleting pod %s/%s: %v", p.Namespace, p.Name, err)
		}
	}
	remaining := func(ctx context.Context) ([]corev1.Pod, error) {
		l, err := pods.List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, err
		}
		return l.Items, nil
	}
	err = WaitFor(ctx, 60*time.Second, time.Second, "pods deleted", func(ctx context.Context) error {
		left, err := remaining(ctx)
		if err != nil {
			return err
		}
		if len(left) > 0 {
			return fmt.Errorf("%d pods left, e.g. %s/%s", len(left), left[0].Namespace, left[0].Name)
		}
		return nil
	})
	if err == nil {
		c.logf("teardown: %d pods deleted%s", len(list.Items), map[bool]string{true: " in " + ns, false: ""}[ns != ""])
		return nil
	}
	left, lerr := remaining(ctx)
	if lerr != nil {
		return errors.Join(err, lerr)
	}
	zero := int64(0)
	for _, p := range left {
		c.logf("teardown: pod %s/%s still there (finalizers %v): forcing", p.Namespace, p.Name, p.Finalizers)
		if len(p.Finalizers) > 0 {
			_, _ = c.Client.CoreV1().Pods(p.Namespace).Patch(ctx, p.Name, types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		}
		_ = c.Client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
	}
	return nil
}
