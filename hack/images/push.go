package main

import (
	"context"
	"fmt"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// push writes img to ref (registry/repository:tag) with the credentials of the
// docker config (~/.docker/config.json, as docker login and crane write it). insecure
// allows plain HTTP; go-containerregistry already speaks HTTP to localhost and
// 127.0.0.1.
func push(ctx context.Context, img v1.Image, ref string, insecure bool) error {
	var opts []name.Option
	if insecure {
		opts = append(opts, name.Insecure)
	}
	tag, err := name.NewTag(ref, opts...)
	if err != nil {
		return fmt.Errorf("image name %q: %w", ref, err)
	}
	if err := remote.Write(tag, img, remote.WithContext(ctx), remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
		return fmt.Errorf("push %s: %w", ref, err)
	}
	return nil
}
