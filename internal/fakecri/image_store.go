package fakecri

import (
	"sort"

	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// AddImage puts image into the store as if it had been pulled, without any pull
// behaviour, pull record or registry check (a node's pre-loaded images; the images of
// pods KubeletSim starts). It returns the stored image.
func (s *Server) AddImage(image string) (Image, error) {
	ref, err := NormalizeImageRef(image)
	if err != nil {
		return Image{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.storeImageLocked(ref).clone(), nil
}

// Images returns the stored images sorted by reference.
func (s *Server) Images() []Image {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Image, 0, len(s.images))
	for _, img := range s.images {
		out = append(out, img.clone())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Ref < out[j].Ref })
	return out
}

// HasImage reports whether image (a reference or an image ID) is in the store.
func (s *Server) HasImage(image string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.findImageLocked(image) != nil
}

// storeImageLocked adds ref (normalized) unless present; the caller holds s.mu.
func (s *Server) storeImageLocked(ref string) *Image {
	if img, ok := s.images[ref]; ok {
		return img
	}
	ident := identify(ref)
	img := &Image{Ref: ref, ID: ident.id, RepoTags: ident.repoTags, RepoDigests: ident.repoDigest, Size: ident.size}
	s.images[ref] = img
	s.publish(Event{Type: EventImagePulled, ID: ref})
	return img
}

// findImageLocked looks an image up by reference (any form) or by ID, as containerd
// does for ImageStatus and RemoveImage.
func (s *Server) findImageLocked(image string) *Image {
	if id, ok := isImageID(image); ok {
		for _, img := range s.images {
			if img.ID == id {
				return img
			}
		}
		return nil
	}
	ref, err := NormalizeImageRef(image)
	if err != nil {
		return nil
	}
	return s.images[ref]
}

func toCRIImage(img *Image) *runtimeapi.Image {
	return &runtimeapi.Image{
		Id:          img.ID,
		RepoTags:    append([]string(nil), img.RepoTags...),
		RepoDigests: append([]string(nil), img.RepoDigests...),
		Size:        img.Size,
		Spec:        &runtimeapi.ImageSpec{Image: img.Ref},
	}
}
