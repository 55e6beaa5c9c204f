package fakecri

import (
	"time"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// PullRecord is one PullImage call as the runtime saw it, so a test can assert what the
// node daemon asked for and with which credentials.
type PullRecord struct {
	// Image is the reference as requested, Ref its normalized form ("" if unparsable).
	Image, Ref string
	// Auth is the credential sent with the pull; nil when none was.
	Auth *Auth
	// PodNamespace/PodName come from the sandbox config sent with the pull, if any.
	PodNamespace, PodName string
	Start, End            time.Time
	// Err is the error the pull returned (a gRPC status error), nil on success.
	Err error
}

// Auth is a copy of a PullImage request's AuthConfig.
type Auth struct {
	Username, Password, Auth, ServerAddress, IdentityToken, RegistryToken string
}

func authFrom(a *runtimeapi.AuthConfig) *Auth {
	if a == nil {
		return nil
	}
	return &Auth{
		Username:      a.GetUsername(),
		Password:      a.GetPassword(),
		Auth:          a.GetAuth(),
		ServerAddress: a.GetServerAddress(),
		IdentityToken: a.GetIdentityToken(),
		RegistryToken: a.GetRegistryToken(),
	}
}

// Pulls returns every PullImage call so far, oldest first; a pull still running has a
// zero End.
func (s *Server) Pulls() []PullRecord {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]PullRecord, len(s.pullLog))
	for i, r := range s.pullLog {
		out[i] = r
		if r.Auth != nil {
			a := *r.Auth
			out[i].Auth = &a
		}
	}
	return out
}

// PullAttempts counts the PullImage calls for image (compared after normalization).
func (s *Server) PullAttempts(image string) int {
	ref, err := NormalizeImageRef(image)
	if err != nil {
		ref = image
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.pullLog {
		if r.Ref == ref || r.Image == image {
			n++
		}
	}
	return n
}
