package alert

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/rootline-dev/rootline/internal/redact"
	"github.com/rootline-dev/rootline/internal/textcheck"
)

// Limits bound what Decode accepts. A zero field takes its default (DefaultLimits()).
type Limits struct {
	MaxBytes      int64 // the payload's size
	MaxAlerts     int   // alerts in one payload
	MaxPairs      int   // labels, or annotations, of one alert
	MaxNameBytes  int   // a label's or annotation's name
	MaxValueBytes int   // a label's or annotation's value, and the generator URL
}

// DefaultLimits are generous for Alertmanager (whose groups rarely hold more than a few hundred
// alerts, each with a dozen labels) and small for the server.
func DefaultLimits() Limits {
	return Limits{MaxBytes: 4 << 20, MaxAlerts: 1000, MaxPairs: 64, MaxNameBytes: 256, MaxValueBytes: 8 << 10}
}

// ErrTooLarge is returned when the payload is larger than Limits.MaxBytes.
var ErrTooLarge = errors.New("alert: payload too large")

// Error is a payload Decode refuses: malformed, of another version, or beyond a limit. Msg
// says what and where, for the sender.
type Error struct{ Msg string }

// Error says what was refused, for logs; Msg alone is for the sender.
func (e *Error) Error() string { return "alert: " + e.Msg }

// invalid is an *Error with a formatted message.
func invalid(format string, args ...any) error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// payload is the webhook's JSON, version 4, field for field as Alertmanager sends it
// (notify/webhook.Message: template.Data, version, groupKey, truncatedAlerts). It sends no
// other field, so any other is refused.
type payload struct {
	Version           string            `json:"version"`
	GroupKey          string            `json:"groupKey"`
	TruncatedAlerts   uint64            `json:"truncatedAlerts"`
	Receiver          string            `json:"receiver"`
	Status            string            `json:"status"`
	Alerts            []payloadAlert    `json:"alerts"`
	GroupLabels       map[string]string `json:"groupLabels"`
	CommonLabels      map[string]string `json:"commonLabels"`
	CommonAnnotations map[string]string `json:"commonAnnotations"`
	ExternalURL       string            `json:"externalURL"`
}

// payloadAlert is one alert of the payload (template.Alert).
type payloadAlert struct {
	Status       string            `json:"status"`
	Labels       map[string]string `json:"labels"`
	Annotations  map[string]string `json:"annotations"`
	StartsAt     time.Time         `json:"startsAt"`
	EndsAt       time.Time         `json:"endsAt"`
	GeneratorURL string            `json:"generatorURL"`
	Fingerprint  string            `json:"fingerprint"`
}

// Decode reads one webhook payload from r and checks it against lim: one JSON object with no
// field Alertmanager does not send and nothing after it, of version 4, each alert with a
// fingerprint, a status and a start, within the limits. The alerts' annotations and generator
// URLs are redacted. An error is ErrTooLarge or an *Error.
func Decode(r io.Reader, lim Limits) (*Group, error) {
	lim = lim.withDefaults()
	lr := &io.LimitedReader{R: r, N: lim.MaxBytes + 1}
	dec := json.NewDecoder(lr)
	dec.DisallowUnknownFields()
	var p payload
	err := dec.Decode(&p)
	if lr.N <= 0 {
		return nil, ErrTooLarge
	}
	if err != nil {
		return nil, invalid("malformed payload: %v", err)
	}
	_, err = dec.Token()
	if lr.N <= 0 { // whitespace after the object counts too
		return nil, ErrTooLarge
	}
	if !errors.Is(err, io.EOF) {
		return nil, invalid("malformed payload: something follows the JSON object")
	}
	if p.Version != Version {
		return nil, invalid("version %q is not supported: only version %s of Alertmanager's webhook payload is", clip(p.Version), Version)
	}
	if p.Status != Firing && p.Status != Resolved {
		return nil, invalid("status %q: want %q or %q", clip(p.Status), Firing, Resolved)
	}
	if len(p.Alerts) > lim.MaxAlerts {
		return nil, invalid("%d alerts: at most %d in one payload (set max_alerts in the webhook_config)", len(p.Alerts), lim.MaxAlerts)
	}
	for _, m := range []map[string]string{p.GroupLabels, p.CommonLabels, p.CommonAnnotations} {
		if err := checkPairs("the group's", m, lim); err != nil {
			return nil, err
		}
	}
	for _, s := range []string{p.Receiver, p.GroupKey, p.ExternalURL} {
		if len(s) > lim.MaxValueBytes {
			return nil, invalid("receiver, groupKey or externalURL longer than %d bytes", lim.MaxValueBytes)
		}
	}
	g := &Group{Receiver: textcheck.Clean(p.Receiver, false), Status: p.Status, GroupKey: textcheck.Clean(p.GroupKey, false),
		ExternalURL:     redact.Text(textcheck.Clean(p.ExternalURL, false)),
		TruncatedAlerts: p.TruncatedAlerts, Alerts: make([]Alert, 0, len(p.Alerts))}
	for i, a := range p.Alerts {
		got, err := a.check(i, lim)
		if err != nil {
			return nil, err
		}
		g.Alerts = append(g.Alerts, got)
	}
	return g, nil
}

// check validates alert i of a payload and returns it redacted.
func (a payloadAlert) check(i int, lim Limits) (Alert, error) {
	if !isFingerprint(a.Fingerprint) {
		return Alert{}, invalid("alert %d: fingerprint %q: want 1 to 64 hexadecimal digits", i, clip(a.Fingerprint))
	}
	if a.Status != Firing && a.Status != Resolved {
		return Alert{}, invalid("alert %d: status %q: want %q or %q", i, clip(a.Status), Firing, Resolved)
	}
	if a.StartsAt.IsZero() || a.StartsAt.Year() < 1970 || a.StartsAt.Year() > 9999 {
		return Alert{}, invalid("alert %d: startsAt missing or out of range", i)
	}
	end := time.Time{}
	if a.Status == Resolved {
		if a.EndsAt.Before(a.StartsAt) || a.EndsAt.Year() > 9999 {
			return Alert{}, invalid("alert %d: resolved, but endsAt is missing or before startsAt", i)
		}
		end = a.EndsAt.UTC()
	}
	if len(a.GeneratorURL) > lim.MaxValueBytes {
		return Alert{}, invalid("alert %d: generatorURL longer than %d bytes", i, lim.MaxValueBytes)
	}
	if err := checkPairs(fmt.Sprintf("alert %d: labels:", i), a.Labels, lim); err != nil {
		return Alert{}, err
	}
	if err := checkPairs(fmt.Sprintf("alert %d: annotations:", i), a.Annotations, lim); err != nil {
		return Alert{}, err
	}
	// Labels are redacted as annotations are (a label named password, a URL with a password
	// in db_url): they are shown and exported alike. Alertmanager's fingerprint, made from the
	// labels as sent, stays the alert's identity. Control characters and invalid UTF-8 (a NUL,
	// which PostgreSQL refuses in text) are cleaned from every value kept, so that one alert's
	// bytes never cost the payload's others.
	labels, notes := cleanPairs(a.Labels, false), cleanPairs(a.Annotations, true)
	redact.Keyed(labels)
	redact.Keyed(notes)
	return Alert{Fingerprint: a.Fingerprint, Status: a.Status, Labels: labels, Annotations: notes, StartsAt: a.StartsAt.UTC(),
		EndsAt: end, GeneratorURL: redact.Text(textcheck.Clean(a.GeneratorURL, false))}, nil
}

// cleanPairs is a copy of labels or annotations with names and values cleaned
// (textcheck.Clean; values of annotations may span lines), never nil.
func cleanPairs(m map[string]string, multiline bool) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[textcheck.Clean(k, false)] = textcheck.Clean(v, multiline)
	}
	return out
}

// checkPairs checks a map of labels or annotations against lim; where names it in the error.
func checkPairs(where string, m map[string]string, lim Limits) error {
	if len(m) > lim.MaxPairs {
		return invalid("%s %d pairs: at most %d", where, len(m), lim.MaxPairs)
	}
	for _, k := range slices.Sorted(maps.Keys(m)) { // the same error for the same payload
		if k == "" || len(k) > lim.MaxNameBytes {
			return invalid("%s name %q empty or longer than %d bytes", where, clip(k), lim.MaxNameBytes)
		}
		if len(m[k]) > lim.MaxValueBytes {
			return invalid("%s %s: value longer than %d bytes", where, clip(k), lim.MaxValueBytes)
		}
	}
	return nil
}

// isFingerprint reports whether s looks like Alertmanager's fingerprint of an alert (16
// hexadecimal digits; up to 64 are taken).
func isFingerprint(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range []byte(s) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// clip shortens what a sender gave for an error message.
func clip(s string) string {
	if len(s) <= 64 {
		return s
	}
	cut := 64
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxBytes > 0 {
		d.MaxBytes = l.MaxBytes
	}
	if l.MaxAlerts > 0 {
		d.MaxAlerts = l.MaxAlerts
	}
	if l.MaxPairs > 0 {
		d.MaxPairs = l.MaxPairs
	}
	if l.MaxNameBytes > 0 {
		d.MaxNameBytes = l.MaxNameBytes
	}
	if l.MaxValueBytes > 0 {
		d.MaxValueBytes = l.MaxValueBytes
	}
	return d
}
