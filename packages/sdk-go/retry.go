package dataplatform

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// finalConflicts are 409 codes no retry can change: a duplicate id stays a duplicate, a reused Idempotency-Key
// stays mismatched (the retry carries the same key), an aborted transaction failed on its own operations. Other
// 409s are transient.
var finalConflicts = map[string]bool{"conflict": true, "idempotency_mismatch": true, "transaction_aborted": true}

// retryableStatus tells whether an error answer is worth another attempt: 408, 409 (not its final codes), 429
// and 5xx.
func retryableStatus(status int, code string) bool {
	if status == http.StatusConflict {
		return !finalConflicts[code]
	}
	return status == http.StatusRequestTimeout || status == http.StatusTooManyRequests || status >= 500
}

// serverDelay is the wait the server asked for: retry-after-ms, else Retry-After (seconds or an HTTP date).
func serverDelay(header http.Header, now time.Time) (time.Duration, bool) {
	if ms := strings.TrimSpace(header.Get("Retry-After-Ms")); ms != "" {
		if value, err := strconv.ParseFloat(ms, 64); err == nil && value >= 0 {
			return time.Duration(value * float64(time.Millisecond)), true
		}
	}
	after := strings.TrimSpace(header.Get("Retry-After"))
	if after == "" {
		return 0, false
	}
	if seconds, err := strconv.ParseFloat(after, 64); err == nil {
		return time.Duration(seconds * float64(time.Second)), seconds >= 0
	}
	if date, err := http.ParseTime(after); err == nil {
		return max(0, date.Sub(now)), true
	}
	return 0, false
}

// backoff is exponential with jitter: 0.5 s, 1 s, 2 s … capped at 8 s, each shortened by up to a quarter.
func backoff(retry int) time.Duration {
	seconds := min(0.5*float64(uint64(1)<<min(retry, 8)), 8)
	return time.Duration(seconds * (1 - rand.Float64()*0.25) * float64(time.Second))
}

// retryDelay is the wait before retry number `retry` (0-based); false means do not retry (the server asked for
// longer than maxWait).
func retryDelay(retry int, header http.Header, maxWait time.Duration) (time.Duration, bool) {
	if header != nil {
		if asked, ok := serverDelay(header, time.Now()); ok {
			return asked, asked <= maxWait
		}
	}
	return backoff(retry), true
}
