package text

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/rootline-dev/rootline/internal/lazyre"
)

// A log collector wraps each line a component wrote in a record of its own: the kubelet's CRI
// log files, Docker's json-file driver, fluentd and Fluent Bit, the systemd journal's JSON,
// Google Cloud Logging, an Elastic document, a CloudWatch Logs Insights export. unwrap takes
// the line back out of its record, so that the line's layout (a table row, a describe field, a
// klog header) is read as the component wrote it, and keeps the time the collector recorded
// for lines that carry none of their own.

var (
	// criLineRe is a line of a CRI log file (/var/log/pods/<ns>_<pod>_<uid>/<container>/0.log):
	// "2024-03-01T12:00:00.123456789Z stdout F <line>", P for a partial line.
	criLineRe = lazyre.New(`^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d)) (?:stdout|stderr) [FP] ?`)
	// csvLineRe is a row of a log export to CSV with the time first and the line last, quoted
	// with its quotes doubled: CloudWatch Logs Insights' "@timestamp,@message" ("2024-03-01
	// 12:00:00.000,"I0301 …""), or a time in epoch milliseconds.
	csvLineRe = lazyre.New(`^"?(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?|\d{10}(?:\d{3})?)"?,"((?:[^"]|"")*)"$`)
)

// unwrap returns the line inside a collector's record and the time the record gives (zero
// when none); ok is false, and s is returned as it is, for any other line.
func unwrap(s string) (line string, at time.Time, ok bool) {
	t := strings.TrimLeft(s, " ")
	switch {
	case strings.HasPrefix(t, `{"`) && strings.HasSuffix(t, "}"):
		return jsonRecord(t)
	case len(t) > 20 && t[4] == '-' && t[10] == 'T':
		if m := criLineRe.FindStringSubmatch(t); m != nil {
			return t[len(m[0]):], parseStamp(m[1]), true
		}
	}
	if (len(t) > 12 && t[0] >= '0' && t[0] <= '9' || strings.HasPrefix(t, `"`)) && strings.Contains(t, `,"`) {
		if m := csvLineRe.FindStringSubmatch(t); m != nil {
			return strings.ReplaceAll(m[2], `""`, `"`), parseStamp(m[1]), true
		}
	}
	return s, time.Time{}, false
}

// logRecord is what the collectors' JSON records hold, each under its own keys.
type logRecord struct {
	Log         *string         `json:"log"`        // Docker's json-file, fluentd, Fluent Bit
	Stream      string          `json:"stream"`     // Docker's: stdout or stderr
	Time        string          `json:"time"`       // Docker's
	Kubernetes  json.RawMessage `json:"kubernetes"` // fluentd's and Fluent Bit's metadata
	Message     *string         `json:"MESSAGE"`    // journalctl -o json
	Realtime    string          `json:"__REALTIME_TIMESTAMP"`
	Hostname    string          `json:"_HOSTNAME"`
	Identifier  string          `json:"SYSLOG_IDENTIFIER"`
	PID         string          `json:"_PID"`
	TextPayload *string         `json:"textPayload"` // Google Cloud Logging
	Timestamp   string          `json:"timestamp"`
	Elastic     *string         `json:"message"` // an Elastic (Filebeat, Logstash) document, with @timestamp
	At          string          `json:"@timestamp"`
	Kind        string          `json:"kind"`
	Involved    json.RawMessage `json:"involvedObject"`
}

// jsonRecord reads one collector's JSON record. A record of any other shape (a structured
// log line of klog or zap, an event written as JSON) is not a wrapper: its keys are its data.
func jsonRecord(s string) (string, time.Time, bool) {
	var r logRecord
	if json.Unmarshal([]byte(s), &r) != nil {
		return s, time.Time{}, false
	}
	switch {
	case r.Log != nil && (r.Stream != "" || r.Time != "" || len(r.Kubernetes) > 0):
		return trimEOL(*r.Log), parseStamp(r.Time), true
	case r.Message != nil:
		return journalLine(r), microStamp(r.Realtime), true
	case r.TextPayload != nil:
		return trimEOL(*r.TextPayload), parseStamp(r.Timestamp), true
	case r.Elastic != nil && r.At != "" && r.Kind == "" && len(r.Involved) == 0:
		return trimEOL(*r.Elastic), parseStamp(r.At), true
	}
	return s, time.Time{}, false
}

// journalLine is a journal record as `journalctl -o short-iso` prints it: "2024-03-01T12:00:00+0000
// host ident[pid]: message", so that its host and its process are read as a journal's.
func journalLine(r logRecord) string {
	msg := trimEOL(*r.Message)
	if r.Hostname == "" || r.Identifier == "" {
		return msg
	}
	var b strings.Builder
	if at := microStamp(r.Realtime); !at.IsZero() {
		b.WriteString(at.UTC().Format("2006-01-02T15:04:05-0700"))
		b.WriteByte(' ')
	}
	b.WriteString(r.Hostname)
	b.WriteByte(' ')
	b.WriteString(r.Identifier)
	if r.PID != "" {
		b.WriteString("[" + r.PID + "]")
	}
	b.WriteString(": ")
	b.WriteString(msg)
	return b.String()
}

// trimEOL trims the line end a record keeps, and joins the lines of a record that holds
// several (a journal message of many lines) into one.
func trimEOL(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	if strings.ContainsAny(s, "\r\n") {
		s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\r", "")), " ")
	}
	return s
}

// parseStamp reads a record's time: RFC 3339, with or without a fraction or zone, or epoch
// seconds or milliseconds.
func parseStamp(s string) time.Time {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		switch len(s) {
		case 10:
			return time.Unix(n, 0).UTC()
		case 13:
			return time.UnixMilli(n).UTC()
		}
		return time.Time{}
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02 15:04:05Z0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// microStamp reads the journal's __REALTIME_TIMESTAMP, microseconds since the epoch.
func microStamp(s string) time.Time {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return time.Time{}
	}
	return time.UnixMicro(n).UTC()
}
