package dataplatform

import (
	"crypto/rand"
	"encoding/hex"
	"strconv"
	"strings"
	"sync/atomic"
)

// Request ids are a random prefix per process and a counter: the form the server keeps as it is and logs.
var (
	requestIDPrefix  = "req_" + randomHex(6)
	requestIDCounter atomic.Uint64
)

// newRequestID is the X-Request-Id of one call; every attempt of the call sends the same id.
func newRequestID() string {
	n := strconv.FormatUint(requestIDCounter.Add(1), 36)
	if len(n) < 8 {
		n = strings.Repeat("0", 8-len(n)) + n
	}
	return requestIDPrefix + n
}

// newIdempotencyKey is a random UUID (version 4).
func newIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
