package fakecri

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/distribution/reference"
)

// NormalizeImageRef turns an image reference the way users write it into the fully
// qualified form runtimes store and report: "nginx" → "docker.io/library/nginx:latest",
// "nginx:1.9.1" → "docker.io/library/nginx:1.9.1". A reference with a digest keeps only
// the digest, as containerd does.
func NormalizeImageRef(image string) (string, error) {
	named, err := reference.ParseDockerRef(strings.TrimSpace(image))
	if err != nil {
		return "", fmt.Errorf("parse image reference %q: %w", image, err)
	}
	return named.String(), nil
}

// imageIdentity is what the store keeps of a pulled reference. Every value is derived
// from the normalized reference alone, so a test can predict it and two pulls of the same
// reference agree.
type imageIdentity struct {
	ref        string // normalized reference
	id         string // "sha256:<hex>"
	repoTags   []string
	repoDigest []string
	size       uint64
}

func identify(ref string) imageIdentity {
	sum := sha256.Sum256([]byte(ref))
	hexSum := hex.EncodeToString(sum[:])
	ident := imageIdentity{ref: ref, id: "sha256:" + hexSum}
	repo := ref
	if named, err := reference.ParseNormalizedNamed(ref); err == nil {
		repo = named.Name()
		if _, tagged := named.(reference.Tagged); tagged {
			ident.repoTags = []string{ref}
		}
		if digested, ok := named.(reference.Digested); ok {
			// A digest reference names its own content.
			ident.repoDigest = []string{repo + "@" + digested.Digest().String()}
		}
	}
	if ident.repoDigest == nil {
		ident.repoDigest = []string{repo + "@sha256:" + hexSum}
	}
	// 5 MiB to ~260 MiB: a plausible range for container images.
	ident.size = 5<<20 + binary.BigEndian.Uint64(sum[:8])%(255<<20)
	return ident
}

// isImageID reports whether s names an image by its ID ("sha256:<64 hex>" or the bare
// 64 hex digits) rather than by a reference, as CRI callers may do.
func isImageID(s string) (string, bool) {
	hexPart := strings.TrimPrefix(s, "sha256:")
	if len(hexPart) != 64 {
		return "", false
	}
	if _, err := hex.DecodeString(hexPart); err != nil {
		return "", false
	}
	return "sha256:" + hexPart, true
}
