package advancedcronjob

import (
	"context"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubeinformers "k8s.io/client-go/informers"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	testingclock "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/controllers/manager"
	kruisefake "github.com/kruise-native/kruise-native/pkg/generated/clientset/versioned/fake"
	kruiseinformers "github.com/kruise-native/kruise-native/pkg/generated/informers/externalversions"
)

// harness runs sync against fake clients on a fake clock. The informers never run:
// refresh copies what the fake API holds into their caches.
type harness struct {
	t         *testing.T
	kube      *kubefake.Clientset
	kruise    *kruisefake.Clientset
	kubeInf   kubeinformers.SharedInformerFactory
	kruiseInf kruiseinformers.SharedInformerFactory
	c         *Controller
	recorder  *record.FakeRecorder
	clock     *testingclock.FakeClock
}

func newHarness(t *testing.T, acj *v1beta1.AdvancedCronJob, now time.Time) *harness {
	h := &harness{
		t: t, kube: kubefake.NewClientset(), kruise: kruisefake.NewSimpleClientset(acj),
		recorder: record.NewFakeRecorder(100), clock: testingclock.NewFakeClock(now),
	}
	h.kubeInf = kubeinformers.NewSharedInformerFactory(h.kube, 0)
	h.kruiseInf = kruiseinformers.NewSharedInformerFactory(h.kruise, 0)
	ctrl, err := New(context.Background(), &manager.ControllerContext{
		KubeClient: h.kube, KruiseClient: h.kruise, KubeInformers: h.kubeInf, KruiseInformers: h.kruiseInf,
		Recorder: func(string) record.EventRecorder { return h.recorder }, Workers: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	h.c = ctrl.(*Controller)
	h.c.clock = h.clock
	return h
}

func (h *harness) refresh() {
	h.t.Helper()
	ctx := context.Background()
	acjs, _ := h.kruise.AppsV1beta1().AdvancedCronJobs("").List(ctx, metav1.ListOptions{})
	bcjs, _ := h.kruise.AppsV1beta1().BroadcastJobs("").List(ctx, metav1.ListOptions{})
	jobs, _ := h.kube.BatchV1().Jobs("").List(ctx, metav1.ListOptions{})
	var a, b, j []interface{}
	for i := range acjs.Items {
		a = append(a, &acjs.Items[i])
	}
	for i := range bcjs.Items {
		b = append(b, &bcjs.Items[i])
	}
	for i := range jobs.Items {
		j = append(j, &jobs.Items[i])
	}
	replace(h.t, h.kruiseInf.Apps().V1beta1().AdvancedCronJobs().Informer().GetStore(), a)
	replace(h.t, h.kruiseInf.Apps().V1beta1().BroadcastJobs().Informer().GetStore(), b)
	replace(h.t, h.kubeInf.Batch().V1().Jobs().Informer().GetStore(), j)
}

func replace(t *testing.T, store cache.Store, objs []interface{}) {
	t.Helper()
	if err := store.Replace(objs, ""); err != nil {
		t.Fatal(err)
	}
}

// sync refreshes the caches, syncs and returns the events recorded.
func (h *harness) sync(key string) (time.Duration, []string) {
	h.t.Helper()
	h.refresh()
	after, err := h.c.sync(context.Background(), key)
	if err != nil {
		h.t.Fatalf("sync at %s: %v", h.clock.Now().UTC().Format(time.RFC3339), err)
	}
	var events []string
	for {
		select {
		case e := <-h.recorder.Events:
			events = append(events, e)
		default:
			return after, events
		}
	}
}

func (h *harness) acj(ns, name string) *v1beta1.AdvancedCronJob {
	out, err := h.kruise.AppsV1beta1().AdvancedCronJobs(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

func newACJ(template v1beta1.CronJobTemplate, policy v1beta1.ConcurrencyPolicy) *v1beta1.AdvancedCronJob {
	return &v1beta1.AdvancedCronJob{
		ObjectMeta: metav1.ObjectMeta{Name: "nightly", Namespace: "ns", UID: "acj-uid", CreationTimestamp: metav1.NewTime(at("2026-01-01T10:00:30Z"))},
		Spec: v1beta1.AdvancedCronJobSpec{
			Schedule: "*/1 * * * *", TimeZone: ptr.To("Asia/Shanghai"), ConcurrencyPolicy: policy, Paused: ptr.To(false),
			SuccessfulJobsHistoryLimit: ptr.To[int32](3), FailedJobsHistoryLimit: ptr.To[int32](1), Template: template,
		},
	}
}

func hasEvent(events []string, prefix string) bool {
	for _, e := range events {
		if strings.HasPrefix(e, prefix) {
			return true
		}
	}
	return false
}

// A BroadcastJob template under Forbid, minute by minute on a fake clock: nothing
// before the first start; at it a BroadcastJob named by the start's Unix time,
// controlled by the AdvancedCronJob, with the template's labels and the scheduled-at
// annotation; the next start skipped while it runs; started late once it completed.
func TestSyncBroadcastJobRunsUnderForbid(t *testing.T) {
	tmpl := v1beta1.CronJobTemplate{BroadcastJobTemplate: &v1beta1.BroadcastJobTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"team": "nightly"}},
		Spec:       v1beta1.BroadcastJobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}}},
	}}
	h := newHarness(t, newACJ(tmpl, v1beta1.ForbidConcurrent), at("2026-01-01T10:00:40Z"))
	ctx := context.Background()

	after, events := h.sync("ns/nightly")
	if after != 20*time.Second+nextStartDelta || len(events) != 0 {
		t.Fatalf("before the first start: requeue %s, events %v", after, events)
	}
	if st := h.acj("ns", "nightly").Status; st.Type != v1beta1.BroadcastJobTemplate || st.LastScheduleTime != nil {
		t.Errorf("status before the first start: %+v", st)
	}

	h.clock.Step(after)
	after, events = h.sync("ns/nightly")
	bcj, err := h.kruise.AppsV1beta1().BroadcastJobs("ns").Get(ctx, "nightly-1767261660", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("at 10:01 no BroadcastJob nightly-1767261660: %v (events %v)", err, events)
	}
	if ref := metav1.GetControllerOf(bcj); ref == nil || ref.UID != "acj-uid" || ref.Kind != "AdvancedCronJob" ||
		bcj.Labels["team"] != "nightly" || bcj.Annotations[ScheduledAtAnnotation] != "2026-01-01T18:01:00+08:00" {
		t.Errorf("run metadata: owner %+v labels %v annotations %v", ref, bcj.Labels, bcj.Annotations)
	}
	if !hasEvent(events, "Normal SuccessfulCreate Created BroadcastJob nightly-1767261660") {
		t.Errorf("events %v", events)
	}
	st := h.acj("ns", "nightly").Status
	if st.LastScheduleTime == nil || !st.LastScheduleTime.Equal(&metav1.Time{Time: at("2026-01-01T10:01:00Z")}) ||
		len(st.Active) != 1 || st.Active[0].Name != bcj.Name || st.Active[0].Kind != "BroadcastJob" {
		t.Errorf("status after the first start: %+v", st)
	}

	h.clock.Step(after)
	_, events = h.sync("ns/nightly")
	if !hasEvent(events, "Normal JobAlreadyActive") {
		t.Errorf("10:02 with the 10:01 run active: events %v", events)
	}
	if list, _ := h.kruise.AppsV1beta1().BroadcastJobs("ns").List(ctx, metav1.ListOptions{}); len(list.Items) != 1 {
		t.Errorf("Forbid created a second run: %d", len(list.Items))
	}

	h.clock.Step(20 * time.Second)
	bcj.Status.Conditions = []v1beta1.JobCondition{{Type: v1beta1.JobComplete, Status: corev1.ConditionTrue}}
	if _, err := h.kruise.AppsV1beta1().BroadcastJobs("ns").UpdateStatus(ctx, bcj, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	_, events = h.sync("ns/nightly")
	if !hasEvent(events, "Normal SawCompletedJob") || !hasEvent(events, "Normal SuccessfulCreate Created BroadcastJob nightly-1767261720") {
		t.Errorf("the first run completed: events %v, want it seen and the 10:02 start run late", events)
	}
}

// A jobTemplate under Replace: the active Job is deleted (in the background, so its
// pods go too) and the next created; the status lists only the new one.
func TestSyncJobReplace(t *testing.T) {
	tmpl := v1beta1.CronJobTemplate{JobTemplate: &batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
		Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever}}}}}
	h := newHarness(t, newACJ(tmpl, v1beta1.ReplaceConcurrent), at("2026-01-01T10:01:00.1Z"))
	ctx := context.Background()
	if _, events := h.sync("ns/nightly"); !hasEvent(events, "Normal SuccessfulCreate Created Job nightly-1767261660") {
		t.Fatalf("events %v", events)
	}
	h.clock.Step(time.Minute)
	_, events := h.sync("ns/nightly")
	if !hasEvent(events, "Normal SuccessfulDelete Deleted Job nightly-1767261660: replaced") ||
		!hasEvent(events, "Normal SuccessfulCreate Created Job nightly-1767261720") {
		t.Errorf("events %v", events)
	}
	jobs, _ := h.kube.BatchV1().Jobs("ns").List(ctx, metav1.ListOptions{})
	if len(jobs.Items) != 1 || jobs.Items[0].Name != "nightly-1767261720" {
		t.Errorf("jobs after Replace: %v", jobs.Items)
	}
	for _, a := range h.kube.Actions() {
		if a.GetVerb() == "delete" {
			opts := a.(interface{ GetDeleteOptions() metav1.DeleteOptions }).GetDeleteOptions()
			if opts.PropagationPolicy == nil || *opts.PropagationPolicy != metav1.DeletePropagationBackground {
				t.Errorf("Job deleted with propagation %v, want Background (else its pods are orphaned)", opts.PropagationPolicy)
			}
		}
	}
	if st := h.acj("ns", "nightly").Status; len(st.Active) != 1 || st.Active[0].Name != "nightly-1767261720" || st.Type != v1beta1.JobTemplate {
		t.Errorf("status after Replace: %+v", st)
	}
}
