// Package alert reads what Alertmanager's webhook receiver sends (the payload of version 4: a
// group of alerts, firing or resolved, with their labels, annotations and times) and checks it
// as hostile input: bounded in alerts and in the size of labels and annotations, strict about
// fields, its annotations redacted the way ingested text is. It is pure: the server stores what
// Decode returns, and the timeline shows it.
package alert

import (
	"time"
)

// Statuses of an alert, and of a group.
const (
	Firing   = "firing"
	Resolved = "resolved"
)

// Version is the only version of Alertmanager's webhook payload Decode reads.
const Version = "4"

// Alert is one alert as Alertmanager reports it.
type Alert struct {
	// Fingerprint identifies the alert by its labels (Alertmanager's hash of them); with
	// StartsAt it names one firing of it.
	Fingerprint string
	Status      string // Firing or Resolved
	Labels      map[string]string
	Annotations map[string]string // redacted
	StartsAt    time.Time
	// EndsAt is when a resolved alert ended; zero for a firing one (the end Alertmanager gives a
	// firing alert is only when it will consider it resolved if nothing renews it).
	EndsAt       time.Time
	GeneratorURL string
}

// Group is a payload: the alerts of one notification of one receiver.
type Group struct {
	Receiver        string
	Status          string
	GroupKey        string
	ExternalURL     string
	TruncatedAlerts uint64 // how many alerts Alertmanager left out (the receiver's max_alerts)
	Alerts          []Alert
}
