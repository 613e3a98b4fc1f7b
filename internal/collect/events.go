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
)

// Events are not watched through an informer: an informer keeps a copy of every event the API
// server holds, which in a burst is most of the collector's memory. The collector lists them a
// page at a time instead, sending each page on, then watches from the list's resourceVersion,
// and keeps only the resourceVersion it last sent of each event (to send an event again only
// when it changed). A watch that ends is resumed from the last resourceVersion seen; one that
// is too old (410 Gone) starts a new list.

// eventPageSize is how many events a list page holds.
const eventPageSize = 500

// errRelist ends a watch that must start again with a list.
var errRelist = errors.New("resourceVersion too old: list again")

// streamEvents lists and watches events until ctx ends, calling synced once the first list is
// sent and the watch is open.
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

// watchEvents sends events as the watch reports them, resuming the watch from the last
// resourceVersion seen when it closes. It returns errRelist when the API server has
// forgotten that resourceVersion.
func (c *Collector) watchEvents(ctx context.Context, rv string, sent map[types.UID]string, synced func()) error {
	for {
		w, err := c.client.CoreV1().Events(c.o.Namespace).Watch(ctx, metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true})
		if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
			return errRelist
		}
		if err != nil {
			return fmt.Errorf("watch events: %w", err)
		}
		synced()
		next, err := c.readWatch(ctx, w, rv, sent)
		w.Stop()
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
		rv = next
	}
}

// readWatch reads a watch until it closes, and returns the last resourceVersion it saw.
func (c *Collector) readWatch(ctx context.Context, w watch.Interface, rv string, sent map[types.UID]string) (string, error) {
	for {
		select {
		case <-ctx.Done():
			return rv, nil
		case ev, ok := <-w.ResultChan():
			if !ok {
				return rv, nil
			}
			switch ev.Type {
			case watch.Added, watch.Modified:
				if e, ok := ev.Object.(*corev1.Event); ok {
					c.sendEvent(e, sent)
					rv = e.ResourceVersion
				}
			case watch.Deleted:
				if e, ok := ev.Object.(*corev1.Event); ok {
					delete(sent, e.UID)
					rv = e.ResourceVersion
				}
			case watch.Bookmark:
				if e, ok := ev.Object.(*corev1.Event); ok {
					rv = e.ResourceVersion
				}
			case watch.Error:
				err := apierrors.FromObject(ev.Object)
				if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
					return rv, errRelist
				}
				return rv, fmt.Errorf("watch events: %w", err)
			}
		}
	}
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
