// Command loadtest puts a running Rootline server under load (issue 8): it creates an incident,
// uploads the IL-0070 snapshot to it (internal/synth, so it needs nothing beyond the repository),
// and then, for a bounded time, has readers view the incident's page and its timeline while
// uploaders send small snapshots of new events to the same incident. Every upload is different,
// so it is really stored and changes the incident's evidence: the views that follow must load
// and analyse the incident again instead of answering from the server's cache.
//
// It prints, per endpoint, the requests, the throughput, the 50th and 99th percentile and the
// largest latency, and the errors (any answer other than 2xx, or a transport error), as a
// markdown table. It exits 1 when there was any error, 2 on wrong usage. It refuses any server
// that is not on loopback: it is a load generator, meant for one's own machine.
//
//	go run ./scripts/loadtest --url http://127.0.0.1:8080 --duration 3m --readers 8 --uploaders 2
//
// scripts/load.sh starts a server on a fresh database, runs this and writes docs/load.md.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// usageError is a wrong flag or argument: exit status 2.
type usageError struct{ error }

// options are the flags.
type options struct {
	url          string
	token        string
	duration     time.Duration
	readers      int
	uploaders    int
	uploadEvents int
	timeout      time.Duration
	seed         int64
	out          string
	burst        bool
	b            burstOptions
}

func main() {
	err := run()
	var ue usageError
	switch {
	case err == nil:
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

func run() error {
	var o options
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	fs.StringVar(&o.url, "url", "http://127.0.0.1:8080", "the server, on loopback only (localhost, 127.0.0.0/8, ::1)")
	fs.StringVar(&o.token, "token", os.Getenv("ROOTLINE_TOKEN"), "bearer token sent as Authorization: Bearer (env ROOTLINE_TOKEN); not needed when auth is off")
	fs.DurationVar(&o.duration, "duration", 3*time.Minute, "how long the load lasts")
	fs.IntVar(&o.readers, "readers", 8, "concurrent readers, each alternating the incident page and the timeline API")
	fs.IntVar(&o.uploaders, "uploaders", 2, "concurrent uploaders, each sending one small snapshot after another")
	fs.IntVar(&o.uploadEvents, "upload-events", 10, "events in each small snapshot")
	fs.DurationVar(&o.timeout, "timeout", 2*time.Minute, "longest wait for one answer (beyond it: a transport error)")
	fs.Int64Var(&o.seed, "seed", 0, "seed of the generated events (default: from the clock, so that a second run against the same server stores new snapshots)")
	fs.StringVar(&o.out, "out", "", "also write the markdown to this file")
	fs.BoolVar(&o.burst, "burst", false, "run the burst test instead: concurrent large uploads and decompression bombs, all at once")
	fs.IntVar(&o.b.uploads, "burst-uploads", 50, "with --burst: concurrent uploads, each a different pod list")
	fs.IntVar(&o.b.pods, "burst-pods", 1000, "with --burst: pods in each list (1,000 generated pods are about 5 MiB)")
	fs.IntVar(&o.b.hostile, "burst-hostile", 20, "with --burst: concurrent decompression bombs (1 GiB unpacked each)")
	fs.IntVar(&o.b.serverPID, "server-pid", 0, "with --burst: the server's process id, to sample its resident memory from /proc")
	fs.Int64Var(&o.b.budget, "budget", 1<<30, "with --burst and --server-pid: the server's memory budget in bytes, which peak RSS above idle must stay within")
	fs.DurationVar(&o.b.settle, "settle", time.Minute, "with --burst and --server-pid: how long RSS gets to come back near idle")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected arguments %q", fs.Args())}
	}
	base, err := loopbackURL(o.url)
	if err != nil {
		return usageError{err}
	}
	switch {
	case o.duration <= 0:
		return usageError{errors.New("--duration must be positive")}
	case o.readers < 0 || o.uploaders < 0 || o.readers+o.uploaders == 0:
		return usageError{errors.New("--readers and --uploaders must not be negative, and not both 0")}
	case o.uploadEvents < 1:
		return usageError{errors.New("--upload-events must be at least 1")}
	}
	if o.seed == 0 {
		o.seed = time.Now().UnixNano()
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	conns := o.readers + o.uploaders + 1
	c := &client{
		base:  base,
		token: o.token,
		http: &http.Client{Timeout: o.timeout, Transport: &http.Transport{
			Proxy:               nil, // never through a proxy: the server is on this machine
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			IdleConnTimeout:     time.Minute,
		}},
	}
	if o.burst {
		return runBurst(ctx, c, o)
	}
	res, err := loadTest(ctx, c, o)
	if err != nil {
		return err
	}
	md := res.markdown()
	fmt.Print(md)
	if o.out != "" {
		if err := os.WriteFile(o.out, []byte(md), 0o644); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return errors.New("interrupted: the figures cover the load until then")
	}
	if n := res.errorCount(); n > 0 {
		res.printErrors(os.Stderr)
		return fmt.Errorf("%d requests failed", n)
	}
	return nil
}

// runBurst runs the burst test and prints its table; any broken promise exits 1.
func runBurst(ctx context.Context, c *client, o options) error {
	if o.b.uploads < 0 || o.b.hostile < 0 || o.b.pods < 1 {
		return usageError{errors.New("--burst-uploads and --burst-hostile must not be negative, --burst-pods at least 1")}
	}
	c.http.Transport.(*http.Transport).MaxIdleConnsPerHost = o.b.uploads + o.b.hostile
	res, err := burstTest(ctx, c, o.b)
	if err != nil {
		return err
	}
	md := res.markdown()
	fmt.Print(md)
	if o.out != "" {
		if err := os.WriteFile(o.out, []byte(md), 0o644); err != nil {
			return err
		}
	}
	if f := res.failures(); len(f) > 0 {
		return fmt.Errorf("the burst broke %d promises", len(f))
	}
	return nil
}

// loopbackURL parses the server's URL and refuses any host that is not a loopback address or
// localhost: a load test sent to someone else's server is an attack, not a measurement.
func loopbackURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("--url %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("--url %q: use http:// or https://", raw)
	}
	host := u.Hostname()
	ip := net.ParseIP(host)
	if !strings.EqualFold(host, "localhost") && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("--url %q: host %q is not a loopback address; the load test only runs against a server on this machine (localhost, 127.0.0.0/8, ::1)", raw, host)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}
