package collect

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/rootline-dev/rootline/internal/wire"
)

// Sender delivers one batch, the body of POST /api/v1/events (a wire.Batch). An error wrapping ErrRefused
// means the server will never take this batch (it is dropped); any other error is retried.
type Sender interface {
	Send(ctx context.Context, body []byte) error
}

// ErrRefused marks a batch the server refused for good (a 4xx other than 408 and 429).
var ErrRefused = errors.New("refused by the server")

// Backoff bounds between retries of a batch that could not be delivered.
const (
	firstBackoff = 500 * time.Millisecond
	maxBackoff   = 30 * time.Second
)

// newBackoff is the pause between tries after failures in a row: from firstBackoff, doubling
// up to maxBackoff, each with up to a fifth more at random, so that the collectors of many
// clusters, kept away by the same outage, do not all try again at the same moment.
func newBackoff() wait.Backoff {
	return wait.Backoff{Duration: firstBackoff, Factor: 2, Jitter: 0.2, Steps: math.MaxInt32, Cap: maxBackoff}
}

// deliver sends the spooled batches in order, each until it is delivered or refused, waiting
// longer between tries (up to maxBackoff) while the server is away. It returns when ctx ends,
// or when the spool is empty after noMore is closed.
func (c *Collector) deliver(ctx context.Context, noMore <-chan struct{}) {
	backoff := newBackoff()
	for {
		f, body, ok, err := c.spool.oldest()
		if err != nil {
			c.log.Error("spooled batch unreadable", "error", err)
			c.spool.remove(f)
			c.m.dropped.Add(float64(f.items))
			continue
		}
		if !ok {
			select {
			case <-noMore:
				if n, _ := c.spool.size(); n == 0 {
					return
				}
				continue
			case <-c.spool.ready:
				continue
			case <-ctx.Done():
				return
			}
		}
		start := time.Now()
		err = c.o.Sender.Send(ctx, body)
		switch {
		case err == nil:
			c.spool.remove(f)
			c.m.delivered.Inc()
			c.m.deliveredObjects.Add(float64(f.items))
			c.m.sendSeconds.Observe(time.Since(start).Seconds())
			backoff = newBackoff()
		case errors.Is(err, ErrRefused):
			c.log.Error("batch refused by the server: dropped", "objects", f.items, "error", err)
			c.spool.remove(f)
			c.m.refused.Inc()
			c.m.dropped.Add(float64(f.items))
		default:
			c.m.failures.Inc()
			pause := backoff.Step()
			c.log.Warn("batch not delivered, will retry", "objects", f.items, "retry_in", pause, "error", err)
			select {
			case <-time.After(pause):
			case <-ctx.Done():
				return
			}
		}
		n, b := c.spool.size()
		c.m.spoolBatches.Set(float64(n))
		c.m.spoolBytes.Set(float64(b))
	}
}

// HTTPSender posts batches to a Rootline server.
type HTTPSender struct {
	URL    string // the events endpoint with the cluster: http://host/api/v1/events?cluster=NAME
	Token  string // bearer token, when the server wants one
	Client *http.Client
}

// NewHTTPSender builds a sender for a server's base URL and a cluster name.
func NewHTTPSender(server, clusterName, token string) (*HTTPSender, error) {
	u, err := url.Parse(server)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("collect: server %q: use http://HOST:PORT or https://HOST", server)
	}
	u = u.JoinPath("/api/v1/events")
	u.RawQuery = url.Values{"cluster": {clusterName}}.Encode()
	return &HTTPSender{URL: u.String(), Token: token, Client: &http.Client{Timeout: time.Minute}}, nil
}

// Send posts one batch.
func (h *HTTPSender) Send(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", wire.ContentType)
	if h.Token != "" {
		req.Header.Set("Authorization", "Bearer "+h.Token)
	}
	resp, err := h.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	switch {
	case resp.StatusCode/100 == 2:
		return nil
	case resp.StatusCode/100 == 4 && resp.StatusCode != http.StatusRequestTimeout && resp.StatusCode != http.StatusTooManyRequests:
		return fmt.Errorf("%w: %s: %s", ErrRefused, resp.Status, bytes.TrimSpace(msg))
	default:
		return fmt.Errorf("server answered %s: %s", resp.Status, bytes.TrimSpace(msg))
	}
}
