package fakecri

import (
	"context"
	"sort"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// PullImage pulls an image as the configured PullBehavior says: it waits the latency
// (ended early by ctx), then fails or stores the image and returns its ID. Every call
// is recorded (Pulls) with the credentials it carried.
func (s *Server) PullImage(ctx context.Context, req *runtimeapi.PullImageRequest) (*runtimeapi.PullImageResponse, error) {
	requested := req.GetImage().GetImage()
	rec := PullRecord{
		Image:        requested,
		Auth:         authFrom(req.GetAuth()),
		PodNamespace: req.GetSandboxConfig().GetMetadata().GetNamespace(),
		PodName:      req.GetSandboxConfig().GetMetadata().GetName(),
		Start:        time.Now(),
	}
	ref, parseErr := NormalizeImageRef(requested)
	rec.Ref = ref

	s.mu.Lock()
	idx := len(s.pullLog)
	s.pullLog = append(s.pullLog, rec)
	var plan pullPlan
	if parseErr != nil {
		plan.err = status.Errorf(codes.InvalidArgument, "failed to pull and unpack image %q: %v", requested, parseErr)
	} else {
		plan = s.pulls.planPull(requested, ref, req.GetAuth())
	}
	s.mu.Unlock()

	err := plan.err
	if plan.latency > 0 {
		t := time.NewTimer(plan.latency)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			err = status.FromContextError(ctx.Err()).Err()
		}
	} else if ctx.Err() != nil {
		err = status.FromContextError(ctx.Err()).Err()
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	s.pullLog[idx].End = time.Now()
	s.pullLog[idx].Err = err
	if err != nil {
		return nil, err
	}
	img := s.storeImageLocked(ref)
	return &runtimeapi.PullImageResponse{ImageRef: img.ID}, nil
}

// ImageStatus returns the image named by reference or ID; a missing image is no error
// but an empty response, as CRI specifies.
func (s *Server) ImageStatus(_ context.Context, req *runtimeapi.ImageStatusRequest) (*runtimeapi.ImageStatusResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	img := s.findImageLocked(req.GetImage().GetImage())
	if img == nil {
		return &runtimeapi.ImageStatusResponse{}, nil
	}
	resp := &runtimeapi.ImageStatusResponse{Image: toCRIImage(img)}
	if req.GetVerbose() {
		resp.Info = map[string]string{"info": `{"chainID":"` + img.ID + `","size":` + strconv.FormatUint(img.Size, 10) + `}`}
	}
	return resp, nil
}

// ListImages lists the stored images, or only the one the filter names.
func (s *Server) ListImages(_ context.Context, req *runtimeapi.ListImagesRequest) (*runtimeapi.ListImagesResponse, error) {
	return &runtimeapi.ListImagesResponse{Images: s.listImages(req.GetFilter())}, nil
}

// StreamImages is ListImages in one message (newer kubelets prefer the stream).
func (s *Server) StreamImages(req *runtimeapi.StreamImagesRequest, stream grpc.ServerStreamingServer[runtimeapi.StreamImagesResponse]) error {
	return stream.Send(&runtimeapi.StreamImagesResponse{Images: s.listImages(req.GetFilter())})
}

func (s *Server) listImages(filter *runtimeapi.ImageFilter) []*runtimeapi.Image {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*runtimeapi.Image
	if name := filter.GetImage().GetImage(); name != "" {
		if img := s.findImageLocked(name); img != nil {
			out = append(out, toCRIImage(img))
		}
		return out
	}
	for _, img := range s.images {
		out = append(out, toCRIImage(img))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Spec.Image < out[j].Spec.Image })
	return out
}

// RemoveImage removes the image named by reference or ID; removing a missing image is
// no error (CRI requires idempotence).
func (s *Server) RemoveImage(_ context.Context, req *runtimeapi.RemoveImageRequest) (*runtimeapi.RemoveImageResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if img := s.findImageLocked(req.GetImage().GetImage()); img != nil {
		delete(s.images, img.Ref)
		s.publish(Event{Type: EventImageRemoved, ID: img.Ref})
	}
	return &runtimeapi.RemoveImageResponse{}, nil
}

// ImageFsInfo reports one image filesystem holding every stored image.
func (s *Server) ImageFsInfo(context.Context, *runtimeapi.ImageFsInfoRequest) (*runtimeapi.ImageFsInfoResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var used uint64
	for _, img := range s.images {
		used += img.Size
	}
	fs := &runtimeapi.FilesystemUsage{
		Timestamp:  time.Now().UnixNano(),
		FsId:       &runtimeapi.FilesystemIdentifier{Mountpoint: "/var/lib/fakecri/images"},
		UsedBytes:  &runtimeapi.UInt64Value{Value: used},
		InodesUsed: &runtimeapi.UInt64Value{Value: uint64(len(s.images))},
	}
	return &runtimeapi.ImageFsInfoResponse{ImageFilesystems: []*runtimeapi.FilesystemUsage{fs}}, nil
}
