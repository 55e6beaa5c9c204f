package installhooks

import "encoding/base64"

// encodeBytes is a []byte field as an unstructured object holds it (JSON: base64).
func encodeBytes(b []byte) string {
	return base64.StdEncoding.EncodeToString(b)
}
