package server

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/time/rate"
)

// callerKey is where requireAuth leaves who is calling: the token's name, for the limits.
const callerKey = "rootline.caller"

// keyedLimiter allows each key (a token, for uploads; an address, for sign-ins) so many
// requests a minute, with a burst. It remembers at most maxCallers keys.
type keyedLimiter struct {
	perMinute float64
	burst     int
	mu        sync.Mutex
	callers   map[string]*callerLimit
}

type callerLimit struct {
	lim  *rate.Limiter
	seen time.Time
}

const maxCallers = 10000

func newKeyedLimiter(perMinute float64, burst int) *keyedLimiter {
	return &keyedLimiter{perMinute: perMinute, burst: max(burst, 1), callers: map[string]*callerLimit{}}
}

// allow takes one request from the key's budget, or says how long until there is one.
func (u *keyedLimiter) allow(caller string, now time.Time) (bool, time.Duration) {
	u.mu.Lock()
	defer u.mu.Unlock()
	c, ok := u.callers[caller]
	if !ok {
		if len(u.callers) >= maxCallers {
			u.forgetIdlest(now)
		}
		c = &callerLimit{lim: rate.NewLimiter(rate.Limit(u.perMinute/60), u.burst)}
		u.callers[caller] = c
	}
	c.seen = now
	r := c.lim.ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return false, delay
	}
	return true, 0
}

// left reports whether the key has a request left in its budget, without taking it, or how
// long until it has: sign-ins look first and take only when they fail.
func (u *keyedLimiter) left(key string, now time.Time) (bool, time.Duration) {
	u.mu.Lock()
	defer u.mu.Unlock()
	c, ok := u.callers[key]
	if !ok {
		return true, 0
	}
	if tokens := c.lim.TokensAt(now); tokens < 1 {
		return false, time.Duration((1 - tokens) / float64(c.lim.Limit()) * float64(time.Second))
	}
	return true, 0
}

// forgetIdlest drops the callers idle for ten minutes (their budget is full again anyway),
// or else the one idle longest; u.mu is held.
func (u *keyedLimiter) forgetIdlest(now time.Time) {
	oldest, oldestAt := "", now
	for k, c := range u.callers {
		if now.Sub(c.seen) > 10*time.Minute {
			delete(u.callers, k)
			continue
		}
		if c.seen.Before(oldestAt) || oldest == "" {
			oldest, oldestAt = k, c.seen
		}
	}
	if len(u.callers) >= maxCallers {
		delete(u.callers, oldest)
	}
}

// limitUploads refuses an upload beyond the caller's budget with 429 and Retry-After.
func (s *Server) limitUploads() gin.HandlerFunc { return limitBy(s.uploads, "uploads") }

// limitEvents refuses a collector's batch beyond its token's budget (--events-rate, sized for
// `rootline collect`: a batch of up to 500 objects every 2 s, and the bursts of a first listing
// or of a backlog delivered after an outage); the collector waits and sends it again.
func (s *Server) limitEvents() gin.HandlerFunc { return limitBy(s.events, "event batches") }

// limitBy refuses a request beyond its caller's budget in l with 429 and Retry-After. Callers
// are tokens (and people signed in): with authentication off there is no one to count.
func limitBy(l *keyedLimiter, what string) gin.HandlerFunc {
	if l == nil {
		return func(c *gin.Context) { c.Next() }
	}
	return func(c *gin.Context) {
		v, ok := c.Get(callerKey)
		if !ok { // authentication off (loopback): no tokens to count against
			c.Next()
			return
		}
		caller := v.(string)
		ok, wait := l.allow(caller, time.Now())
		if !ok {
			secs := int(math.Ceil(wait.Seconds()))
			c.Header("Retry-After", strconv.Itoa(secs))
			closeUnread(c)
			c.AbortWithStatusJSON(http.StatusTooManyRequests, gin.H{"error": fmt.Sprintf(
				"too many %s from %s: %g a minute, %d at once; try again in %d s", what, caller, l.perMinute, l.burst, secs)})
			return
		}
		c.Next()
	}
}

// closeUnread marks the answer to a request refused before its body was read to close the
// connection: otherwise net/http reads what is left of the body first, to keep the connection,
// at whatever pace the client sends it.
func closeUnread(c *gin.Context) {
	if c.Request.Body != nil && c.Request.Body != http.NoBody && c.Request.ContentLength != 0 {
		c.Header("Connection", "close")
	}
}
