package redact

import "testing"

// TestScrubPrefilter: the cheap checks never let through text the regular expressions would
// redact, including Unicode that folds onto the secret words.
func TestScrubPrefilter(t *testing.T) {
	texts := []string{"", "0/126 nodes are available", "TOKEN=abc", "my Api-Key: x", "ſecret=1", "apiKey=x", "Bearer abc.def",
		"PASSWD='x y'", "pwd:hunter2", "credentials = a", "no secrets here", "kEy=1", "dbpw=x", "--pass x", "a://b:c@d",
		"BASIC dXNlcjpodW50ZXIy", "Cookie: a=b", "-----BEGIN RSA PRIVATE KEY-----\nMII\n-----END RSA PRIVATE KEY-----", "ſecret=1 http://a:b@c"}
	for i := range 2000 {
		b := make([]byte, i%40)
		for j := range b {
			b[j] = "sekrtonpawdbycui=:/@- ſK\u212a"[(i*7+j*13)%28]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		if got, want := Text(s), scrubText(s, true); got != want {
			t.Errorf("Text(%q) = %q, but the rules give %q: the prefilter lets it through", s, got, want)
		}
	}
}

// TestSecretNamePrefilter: likewise for the names of annotations and headers.
func TestSecretNamePrefilter(t *testing.T) {
	names := []string{"", "kubectl.kubernetes.io/restartedAt", "X-Auth-Token", "API_KEY", "ſession", "\u212aey", "Set-Cookie",
		"cluster-autoscaler.kubernetes.io/scale-down-disabled", "webhook-CERT", "SIGNATURE", "Passwd", "pwd", "credentials"}
	for i := range 3000 {
		b := make([]byte, i%40)
		for j := range b {
			b[j] = "sekrtonpawdbycuhil-_.: ſK\u212a"[(i*7+j*13)%28]
		}
		names = append(names, string(b))
	}
	for _, s := range names {
		if secretName.MatchString(s) != isSecretName(s) {
			t.Errorf("isSecretName(%q) = %v, the regular expression says %v", s, isSecretName(s), secretName.MatchString(s))
		}
		if credentialName.MatchString(s) != isCredentialName(s) {
			t.Errorf("isCredentialName(%q) = %v, the regular expression says %v", s, isCredentialName(s), credentialName.MatchString(s))
		}
	}
}
