package change

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// TestKeyValues: a ConfigMap's values become keyed hashes: the same for a value and for its
// unkeyed hash (a collector's), other under another key, unchanged when keyed again, and never
// the unkeyed hash that anyone can compute from a guess.
func TestKeyValues(t *testing.T) {
	t.Parallel()
	key, other := []byte("0123456789abcdef0123456789abcdef"), []byte("fedcba9876543210fedcba9876543210")
	raw := &corev1.ConfigMap{Data: map[string]string{"password": "hunter2"}, BinaryData: map[string][]byte{"blob": []byte("hunter2")}}
	hashed := &corev1.ConfigMap{Data: map[string]string{"password": "hunter2"}}
	HashValues(hashed)
	unkeyed := hashed.Data["password"]
	KeyValues(raw, key)
	KeyValues(hashed, key)
	got := raw.Data["password"]
	if !strings.HasPrefix(got, "hmac:") || len(got) != len("hmac:")+24 || got == unkeyed {
		t.Fatalf("keyed %q, want hmac: and 24 hex digits", got)
	}
	if hashed.Data["password"] != got || string(raw.BinaryData["blob"]) != got {
		t.Errorf("a value, its unkeyed hash and its bytes give %q, %q, %q: want one", got, hashed.Data["password"], raw.BinaryData["blob"])
	}
	again := &corev1.ConfigMap{Data: map[string]string{"password": got}}
	KeyValues(again, key)
	if again.Data["password"] != got {
		t.Errorf("keyed again: %q, want %q", again.Data["password"], got)
	}
	elsewhere := &corev1.ConfigMap{Data: map[string]string{"password": "hunter2"}}
	KeyValues(elsewhere, other)
	if elsewhere.Data["password"] == got {
		t.Error("two keys give the same hash")
	}
}
