package markdown

import (
	"container/list"
	"crypto/sha256"
	"sync"
)

// cache keeps the HTML of the texts rendered last, by the hash of their Markdown, up to a
// number of bytes: a page shows the same notes and report on every view, and renders them once.
type cache struct {
	mu      sync.Mutex
	limit   int // bytes of HTML kept at most
	size    int
	order   *list.List // of *cached, the most recently used first
	entries map[[sha256.Size]byte]*list.Element
}

type cached struct {
	key  [sha256.Size]byte
	html string
}

func newCache(limit int) *cache {
	return &cache{limit: limit, order: list.New(), entries: map[[sha256.Size]byte]*list.Element{}}
}

func (c *cache) get(key [sha256.Size]byte) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return "", false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached).html, true
}

// put keeps html, dropping the least recently used beyond the limit; HTML larger than a
// quarter of the limit is not kept.
func (c *cache) put(key [sha256.Size]byte, html string) {
	if len(html) > c.limit/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		return
	}
	c.entries[key] = c.order.PushFront(&cached{key, html})
	c.size += len(html)
	for c.size > c.limit {
		last := c.order.Back()
		v := last.Value.(*cached)
		c.order.Remove(last)
		delete(c.entries, v.key)
		c.size -= len(v.html)
	}
}
