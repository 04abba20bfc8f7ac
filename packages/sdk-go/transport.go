package dataplatform

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync/atomic"
	"syscall"
	"time"
)

// defaultTransport is the transport of a client made without WithHTTPClient: net/http's defaults, more idle
// connections per host (a client's calls go to one server), and connections that keep an early answer.
var defaultTransport = newTransport()

func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 32
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, address string) (net.Conn, error) {
		conn, err := dialer.DialContext(ctx, network, address)
		if err != nil {
			return nil, err
		}
		return &earlyAnswerConn{Conn: conn}, nil
	}
	return t
}

// earlyAnswerConn keeps the answer of a server that refuses a body before reading it all (413 for a body past its
// limit) and closes the connection: net/http would report the failed write ("broken pipe") and drop the answer
// it has already read. Once the server has answered, writes that fail on the closed connection are discarded,
// so the request ends and its answer is returned.
type earlyAnswerConn struct {
	net.Conn
	answered atomic.Bool
}

func (c *earlyAnswerConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.answered.Store(true)
	}
	return n, err
}

func (c *earlyAnswerConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if err == nil || !(errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET)) {
		return n, err
	}
	// The answer may be on its way to net/http's reading goroutine: give it a moment to arrive.
	for wait := 0; wait < 20 && !c.answered.Load(); wait++ {
		time.Sleep(5 * time.Millisecond)
	}
	if c.answered.Load() {
		return len(p), nil
	}
	return n, err
}
