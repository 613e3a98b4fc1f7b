//go:build (amd64 && !go1.28) || (arm64 && !go1.28)

package jsonscan

import "github.com/bytedance/sonic/decoder"

// SkipFast returns the end of the JSON value at the start of data, found by sonic's native
// (SIMD) skip, which checks the value as it goes; ok is false when the value is not whole in
// data or not valid, and the caller's own scan decides.
func SkipFast(data []byte) (end int, ok bool) {
	start, end := decoder.Skip(data)
	return end, start == 0 && end > 0
}
