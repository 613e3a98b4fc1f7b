package ingest

// RedactText redacts the credentials in free text by the rules every ingested message follows
// (see redact_text.go): for inputs that are not Kubernetes objects, such as an alert's
// annotations, so that they are redacted as events and ConfigMaps are, not by rules of their own.
func RedactText(s string) string { return scrub(s) }

// RedactKeyed redacts a map of text values in place as a ConfigMap's data is: the value of a
// credential-named key (api_key, password) whole, credentials within the others.
func RedactKeyed(m map[string]string) { redactKeyed(m) }
