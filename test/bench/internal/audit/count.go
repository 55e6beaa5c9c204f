package audit

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// event is the part of an audit.k8s.io/v1 Event the counts need.
type event struct {
	Verb string `json:"verb"`
	User struct {
		Username string `json:"username"`
	} `json:"user"`
	UserAgent string `json:"userAgent"`
	ObjectRef *struct {
		Resource    string `json:"resource"`
		Subresource string `json:"subresource"`
		Namespace   string `json:"namespace"`
		APIGroup    string `json:"apiGroup"`
	} `json:"objectRef"`
	Received       time.Time `json:"requestReceivedTimestamp"`
	ResponseStatus *struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
}

// Counts are writes keyed by client, then by "verb resource[/subresource]".
type Counts map[string]map[string]int

// Total is the sum over every client, or over the given ones.
func (c Counts) Total(clients ...string) int {
	n := 0
	for client, byKey := range c {
		if len(clients) > 0 && !contains(clients, client) {
			continue
		}
		for _, v := range byKey {
			n += v
		}
	}
	return n
}

// Filter selects the events of one phase.
type Filter struct {
	Namespace  string    // objects in this namespace only
	From, To   time.Time // received in [From, To]
	SkipEvents bool      // leave core/v1 and events.k8s.io Events out
	// Code: only writes answered with this HTTP status (409: conflicts); 0: every write.
	Code int
}

// Reader reads an audit log from where it last stopped.
type Reader struct {
	path   string
	offset int64
}

// NewReader starts at the end of the log as it is now, so earlier phases are skipped.
func NewReader(path string) (*Reader, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	return &Reader{path: path, offset: st.Size()}, nil
}

// Count reads what the log gained since the last call and counts the events that pass f.
func (r *Reader) Count(f Filter) (Counts, error) {
	out, err := r.CountEach(f)
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// CountEach reads what the log gained since the last call once and counts, for each
// filter, the events that pass it (a step that needs two namespaces apart).
func (r *Reader) CountEach(filters ...Filter) ([]Counts, error) {
	file, err := os.Open(r.path)
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	defer file.Close()
	if _, err := file.Seek(r.offset, io.SeekStart); err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	out := make([]Counts, len(filters))
	for i := range out {
		out[i] = Counts{}
	}
	br := bufio.NewReaderSize(file, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if err == io.EOF {
			break // a partial last line is read again next time
		}
		if err != nil {
			return nil, fmt.Errorf("audit log: %w", err)
		}
		r.offset += int64(len(line))
		var e event
		if json.Unmarshal(line, &e) != nil || e.ObjectRef == nil {
			continue
		}
		for i, f := range filters {
			out[i].add(f, &e)
		}
	}
	return out, nil
}

// add counts e when it passes f.
func (c Counts) add(f Filter, e *event) {
	o := e.ObjectRef
	if o.Namespace != f.Namespace || e.Received.Before(f.From) || e.Received.After(f.To) {
		return
	}
	if f.SkipEvents && o.Resource == "events" {
		return
	}
	if f.Code != 0 && (e.ResponseStatus == nil || e.ResponseStatus.Code != f.Code) {
		return
	}
	res := o.Resource
	if o.Subresource != "" {
		res += "/" + o.Subresource
	}
	client := ClientOf(e.User.Username, e.UserAgent)
	if c[client] == nil {
		c[client] = map[string]int{}
	}
	c[client][e.Verb+" "+res]++
}

// ClientOf names the process behind a request: kube-controller-manager's controllers
// each have their own service account (--use-service-account-credentials).
func ClientOf(username, userAgent string) string {
	switch {
	case strings.HasPrefix(userAgent, "kruise-bench"):
		return "bench"
	case strings.HasPrefix(username, "system:serviceaccount:kube-system:"):
		return "kube-controller-manager/" + strings.TrimPrefix(username, "system:serviceaccount:kube-system:")
	case username == "system:kube-controller-manager":
		return "kube-controller-manager"
	case username == "system:kube-scheduler":
		return "kube-scheduler"
	case strings.HasPrefix(username, "system:serviceaccount:kruise-system:"):
		return strings.TrimPrefix(username, "system:serviceaccount:kruise-system:")
	}
	return username
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
