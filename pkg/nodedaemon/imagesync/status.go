package imagesync

import (
	"fmt"
	"sort"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kruise-native/kruise-native/pkg/apis/apps/v1beta1"
	"github.com/kruise-native/kruise-native/pkg/nodedaemon/imagepuller"
)

// maxFailedInMessage bounds how many failed tags firstSyncStatus.message names.
const maxFailedInMessage = 5

// BuildStatus computes the NodeImage status from the spec's tags (Wanted), the stored
// status, the puller's statuses and per-tag notes (e.g. a missing pull secret), at now:
//   - a tag the puller holds for its spec version reports the puller's status;
//   - otherwise a tag stored as finished for its version keeps its stored status;
//   - otherwise it is Waiting (the puller is about to take it);
//   - tags and images no longer in spec are dropped;
//   - desired/pulling/succeeded/failed count the tags (pulling = not finished, as
//     OpenKruise documents it); waiting counts the unfinished tags still Waiting: queued
//     behind the puller's workers, or not handed to the puller yet;
//   - firstSyncStatus is set once, the first time no tag is left unfinished, and then
//     kept as stored.
//
// Times are cut to whole seconds, as the API stores them, so a status that did not
// change compares equal to the stored one and causes no write.
func BuildStatus(wants []Want, stored *v1beta1.NodeImageStatus, running map[string]imagepuller.Status,
	notes map[string]string, now time.Time) v1beta1.NodeImageStatus {
	out := v1beta1.NodeImageStatus{Desired: int32(len(wants))}
	var failed []string
	for _, w := range wants {
		st := tagStatus(w, stored, running, notes[w.Key])
		switch st.Phase {
		case v1beta1.ImagePhaseSucceeded:
			out.Succeeded++
		case v1beta1.ImagePhaseFailed:
			out.Failed++
			failed = append(failed, w.Ref)
		case v1beta1.ImagePhaseWaiting:
			out.Waiting++
			out.Pulling++
		default:
			out.Pulling++
		}
		if out.ImageStatuses == nil {
			out.ImageStatuses = map[string]v1beta1.ImageStatus{}
		}
		img := out.ImageStatuses[w.Image]
		img.Tags = append(img.Tags, st)
		out.ImageStatuses[w.Image] = img
	}
	out.FirstSyncStatus = stored.FirstSyncStatus.DeepCopy()
	if out.FirstSyncStatus == nil && out.Pulling == 0 {
		out.FirstSyncStatus = firstSync(failed, now)
	}
	return out
}

func tagStatus(w Want, stored *v1beta1.NodeImageStatus, running map[string]imagepuller.Status, note string) v1beta1.ImageTagStatus {
	prev := storedTag(stored, w.Image, w.Tag.Tag)
	if r, ok := running[w.Key]; ok && r.Version == w.Tag.Version {
		st := fromPuller(w.Tag.Tag, r, note)
		// A pull restarted after a daemon restart began when the first daemon started it.
		if prev != nil && prev.Version == w.Tag.Version && prev.StartTime != nil &&
			(st.StartTime == nil || prev.StartTime.Before(st.StartTime)) {
			st.StartTime = prev.StartTime.DeepCopy()
		}
		return st
	}
	if prev != nil && prev.Version == w.Tag.Version && finished(prev.Phase) {
		return *prev.DeepCopy()
	}
	return v1beta1.ImageTagStatus{Tag: w.Tag.Tag, Phase: v1beta1.ImagePhaseWaiting, Version: w.Tag.Version, Message: note}
}

// fromPuller maps the puller's status of a tag (its phases are NodeImage's).
func fromPuller(tag string, s imagepuller.Status, note string) v1beta1.ImageTagStatus {
	st := v1beta1.ImageTagStatus{
		Tag:            tag,
		Phase:          v1beta1.ImagePullPhase(s.Phase),
		Progress:       s.Progress,
		StartTime:      seconds(s.StartTime),
		CompletionTime: seconds(s.CompletionTime),
		Version:        s.Version,
		ImageID:        s.ImageID,
		Message:        joinMessage(note, s.Message),
	}
	if st.Phase == "" {
		st.Phase = v1beta1.ImagePhaseWaiting
	}
	return st
}

func joinMessage(note, msg string) string {
	switch {
	case note == "":
		return msg
	case msg == "":
		return note
	}
	return note + "; " + msg
}

func seconds(t time.Time) *metav1.Time {
	if t.IsZero() {
		return nil
	}
	mt := metav1.NewTime(t.Truncate(time.Second))
	return &mt
}

func firstSync(failed []string, now time.Time) *v1beta1.SyncStatus {
	s := &v1beta1.SyncStatus{SyncAt: metav1.NewTime(now.Truncate(time.Second)), Status: v1beta1.SyncStatusSucceeded}
	if len(failed) == 0 {
		return s
	}
	sort.Strings(failed)
	s.Status = v1beta1.SyncStatusFailed
	names := failed
	if len(names) > maxFailedInMessage {
		names = names[:maxFailedInMessage]
	}
	s.Message = fmt.Sprintf("%d image(s) failed to pull: %s", len(failed), strings.Join(names, ", "))
	if len(failed) > len(names) {
		s.Message += fmt.Sprintf(" and %d more", len(failed)-len(names))
	}
	return s
}
