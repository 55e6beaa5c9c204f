package imagepuller

import "testing"

// FuzzParseReference: any string either fails to parse or yields a reference whose
// printed form parses back to the same reference, and whose normal form is a fixed
// point of NormalizeReference. No input panics.
func FuzzParseReference(f *testing.F) {
	for _, seed := range []string{
		"nginx", "nginx:1.9.1", "library/nginx:latest", "docker.io/library/nginx:1.9.1",
		"registry:5000/team/app@sha256:0123456789012345678901234567890123456789012345678901234567890123",
		"localhost/app:v1", "Docker.io/x", "a/b/c/d:e", "host:5000/x:y@sha256:abc", ":tag", "@sha256:", "x::y",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		ref, err := ParseReference(in)
		if err != nil {
			return
		}
		again, err := ParseReference(ref.String())
		if err != nil {
			t.Fatalf("%q parsed to %q, which does not parse: %v", in, ref.String(), err)
		}
		if again != ref {
			t.Fatalf("%q: %+v printed as %q parses to %+v", in, ref, ref.String(), again)
		}
		norm, err := NormalizeReference(in)
		if err != nil {
			t.Fatalf("%q parses but does not normalize: %v", in, err)
		}
		if twice, err := NormalizeReference(norm); err != nil || twice != norm {
			t.Fatalf("normal form of %q is %q, which normalizes to %q (%v)", in, norm, twice, err)
		}
	})
}
