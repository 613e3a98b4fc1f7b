package collect

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	watchtools "k8s.io/client-go/tools/watch"
)

// Events are not watched through an informer: an informer keeps a copy of every event the API
// server holds, which in a burst is most of the collector's memory. The collector lists them a
// page at a time instead, sending each page on, then watches from the list's resourceVersion,
// and keeps only the resourceVersion it last sent of each event (to send an event again only
// when it changed).
//
// The watch is client-go's RetryWatcher (tools/watch): when a watch closes, or fails to open,
// it opens a new one from the last resourceVersion it saw, bookmarks included, and it hands on
// the 410 Gone ("too old resource version") it cannot get past, after which the collector
// lists again. A cache.Reflector feeding a store that only forwards would relist by itself
// too, but it gathers the whole list before handing it to the store (all the pages, or all
// the objects of a streamed list), which is the memory the collector avoids, and it backs off
// and logs in its own way; the RetryWatcher leaves the paged list, the backoff and the slog
// logging here. client-go's pager (tools/pager) does not serve the list either: it does not
// give the list's resourceVersion, which the watch starts from.

// eventPageSize is how many events a list page holds.
const eventPageSize = 500

// errRelist ends a watch that must start again with a list.
var errRelist = errors.New("resourceVersion too old: list again")

// streamEvents lists and watches events until ctx ends, calling synced once the first list is
// sent and a watch is open. It returns once every goroutine it started has ended.
func (c *Collector) streamEvents(ctx context.Context, synced func()) {
	sent := map[types.UID]string{} // uid → the resourceVersion last sent
	backoff := newBackoff()
	for ctx.Err() == nil {
		rv, err := c.listEvents(ctx, sent)
		if err == nil {
			err = c.watchEvents(ctx, rv, sent, synced)
		}
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, errRelist):
			c.log.Info("events: watch expired, listing again", "error", err)
			backoff = newBackoff()
			continue
		case err != nil:
			pause := backoff.Step()
			c.log.Warn("events: list or watch failed, retrying", "retry_in", pause, "error", err)
			select {
			case <-time.After(pause):
			case <-ctx.Done():
				return
			}
		}
	}
}

// listEvents sends every event that is new or changed since it was last sent, a page at a
// time, forgets the events that are gone, and returns the list's resourceVersion.
func (c *Collector) listEvents(ctx context.Context, sent map[types.UID]string) (string, error) {
	present := make(map[types.UID]bool, len(sent))
	opts := metav1.ListOptions{Limit: eventPageSize}
	var rv string
	for {
		page, err := c.client.CoreV1().Events(c.o.Namespace).List(ctx, opts)
		if err != nil {
			return "", fmt.Errorf("list events: %w", err)
		}
		rv = page.ResourceVersion
		for i := range page.Items {
			e := &page.Items[i]
			present[e.UID] = true
			c.sendEvent(e, sent)
		}
		if page.Continue == "" {
			break
		}
		opts.Continue = page.Continue
	}
	for uid := range sent {
		if !present[uid] {
			delete(sent, uid)
		}
	}
	return rv, nil
}

// watchEvents sends events as a RetryWatcher from rv reports them, until ctx ends (nil) or the
// RetryWatcher gives up: errRelist when the API server has forgotten the resourceVersion it
// would resume from, another error otherwise. It returns once the RetryWatcher has stopped.
func (c *Collector) watchEvents(ctx context.Context, rv string, sent map[types.UID]string, synced func()) error {
	rw, err := watchtools.NewRetryWatcherWithContext(ctx, rv, c.eventWatcher(synced))
	if err != nil {
		return fmt.Errorf("watch events from resourceVersion %q: %w", rv, err)
	}
	defer func() {
		rw.Stop()
		<-rw.Done()
	}()
	for ev := range rw.ResultChan() {
		switch ev.Type {
		case watch.Added, watch.Modified:
			if e, ok := ev.Object.(*corev1.Event); ok {
				c.sendEvent(e, sent)
			}
		case watch.Deleted:
			if e, ok := ev.Object.(*corev1.Event); ok {
				delete(sent, e.UID)
			}
		case watch.Error:
			// The RetryWatcher passes on only the errors it stops at.
			err := apierrors.FromObject(ev.Object)
			if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
				return fmt.Errorf("%w: %w", errRelist, err)
			}
			return fmt.Errorf("watch events: %w", err)
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	return errors.New("watch events: the watch stopped")
}

// eventWatcher opens the RetryWatcher's watches. It calls synced when one is open. A watch
// that cannot be opened is logged and tried again, from the same resourceVersion, after a pause
// from newBackoff (the RetryWatcher itself only waits a second between tries), except:
//   - a 410 Gone, which the RetryWatcher would try again forever though it cannot succeed: it
//     gets it as the error event a watch that opened would have sent, and stops at it;
//   - a 401 or 403, at which the RetryWatcher stops by itself.
//
// Either way streamEvents takes over.
func (c *Collector) eventWatcher(synced func()) cache.WatcherWithContext {
	backoff := newBackoff() // the RetryWatcher opens one watch at a time, from one goroutine
	return &cache.ListWatch{WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
		w, err := c.client.CoreV1().Events(c.o.Namespace).Watch(ctx, opts)
		switch {
		case err == nil:
			backoff = newBackoff()
			synced()
			return w, nil
		case apierrors.IsResourceExpired(err) || apierrors.IsGone(err):
			return errorWatch(err), nil
		case apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err):
			return nil, err // the RetryWatcher stops and hands it on: streamEvents logs it and backs off
		case ctx.Err() != nil:
			return nil, err
		}
		pause := backoff.Step()
		c.log.Warn("events: watch failed, retrying", "resource_version", opts.ResourceVersion, "retry_in", pause, "error", err)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
		}
		return nil, fmt.Errorf("watch events from resourceVersion %q: %w", opts.ResourceVersion, err)
	}}
}

// errorWatch is a watch that reports err, an API error, and closes.
func errorWatch(err error) watch.Interface {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		status = apierrors.NewInternalError(err)
	}
	s := status.Status()
	ch := make(chan watch.Event, 1)
	ch <- watch.Event{Type: watch.Error, Object: &s}
	close(ch)
	return watch.NewProxyWatcher(ch)
}

// sendEvent hands an event on unless this very version was sent already.
func (c *Collector) sendEvent(e *corev1.Event, sent map[types.UID]string) {
	if e.UID != "" && e.ResourceVersion != "" && sent[e.UID] == e.ResourceVersion {
		return
	}
	e.ManagedFields = nil
	c.observe(e)
	if e.UID != "" {
		sent[e.UID] = e.ResourceVersion
	}
}
