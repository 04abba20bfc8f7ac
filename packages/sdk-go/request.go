package dataplatform

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// call is one call of an operation, as the generated methods describe it.
type call struct {
	method string
	// path is the path below the base address, its parameters escaped; it may carry a query of its own.
	path  string
	query url.Values
	// body is sent as JSON unless nil.
	body any
	// content is sent as it is (an upload), with contentType.
	content     io.Reader
	contentType string
	// stream: the answer is read by the caller (an event stream), without the attempt's timeout.
	stream bool
}

// Response is an answer of Client.Do, its body read.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends one call to any path of the API (with its query, as written), such as a route this client does not
// wrap yet, with the client's retries, credentials and request id. A body that is an io.Reader or []byte is sent
// as it is (set its Content-Type with WithHeader); any other non-nil body is sent as JSON. An error answer is
// returned as an *Error.
func (c *Client) Do(ctx context.Context, method, path string, body any, opts ...Option) (*Response, error) {
	cl := &call{method: method, path: path}
	switch b := body.(type) {
	case nil:
	case io.Reader:
		cl.content = b
	case []byte:
		cl.content = bytes.NewReader(b)
	default:
		cl.body = b
	}
	resp, data, err := c.send(ctx, cl, opts)
	if err != nil {
		return nil, err
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}, nil
}

// call sends a call and decodes its JSON answer into out (an empty answer leaves out as it is).
func (c *Client) call(ctx context.Context, cl *call, out any, opts []Option) error {
	_, data, err := c.send(ctx, cl, opts)
	if err != nil || len(data) == 0 || out == nil {
		return err
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("dataplatform: %s %s: the answer is not the expected JSON: %w", cl.method, cl.path, err)
	}
	return nil
}

// location sends a call whose answer is a redirect and returns where it points.
func (c *Client) location(ctx context.Context, cl *call, opts []Option) (string, error) {
	resp, _, err := c.send(ctx, cl, opts)
	if err != nil {
		return "", err
	}
	return resp.Header.Get("Location"), nil
}

// optionalBody is nil for a body not given (a nil pointer inside an `any` would be sent as null).
func optionalBody[T any](body *T) any {
	if body == nil {
		return nil
	}
	return body
}

// send sends a call with retries. It returns the answer with its body read and closed, or, for a stream, the open
// answer (body nil). An error answer is an *Error.
func (c *Client) send(ctx context.Context, cl *call, opts []Option) (*http.Response, []byte, error) {
	s := c.settings.with(opts)
	header, payload, err := c.prepare(s, cl)
	if err != nil {
		return nil, nil, err
	}
	requestID := header.Get("X-Request-Id")
	target := c.baseURL + cl.path
	if len(cl.query) > 0 {
		separator := "?"
		if strings.Contains(cl.path, "?") {
			separator = "&"
		}
		target += separator + cl.query.Encode()
	}
	maxRetries := s.maxRetries
	if cl.stream {
		maxRetries = 0
	}
	// Bytes are sent again on a retry; a reader that cannot be rewound is sent once.
	var content func() io.Reader
	if cl.content != nil {
		content = rewindable(cl.content)
		if content == nil {
			maxRetries = 0
			content = func() io.Reader { return cl.content }
		}
	}
	// After a failure without an answer: the error to return, or nil once the wait before the next attempt is over.
	noAnswer := func(err error, retry int) error {
		if retry >= maxRetries || ctx.Err() != nil {
			return c.connectionError(err, requestID)
		}
		if err := sleep(ctx, backoff(retry)); err != nil {
			return c.connectionError(err, requestID)
		}
		return nil
	}
	for retry := 0; ; retry++ {
		var body io.Reader
		switch {
		case payload != nil:
			body = bytes.NewReader(payload)
		case content != nil:
			body = content()
		}
		attempt, cancel := ctx, context.CancelFunc(func() {})
		if !cl.stream && s.timeout > 0 {
			attempt, cancel = context.WithTimeout(ctx, s.timeout)
		}
		req, err := http.NewRequestWithContext(attempt, cl.method, target, body)
		if err != nil {
			cancel()
			return nil, nil, fmt.Errorf("dataplatform: %s %s: %w", cl.method, cl.path, err)
		}
		if retry == 0 {
			req.Header = header
		} else {
			req.Header = header.Clone()
		}
		resp, err := c.http.Do(req)
		if err != nil {
			cancel()
			if failure := noAnswer(err, retry); failure != nil {
				return nil, nil, failure
			}
			continue
		}
		c.seen(resp.Header)
		if resp.StatusCode < 400 && cl.stream {
			resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
			return resp, nil, nil
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		cancel()
		if err != nil {
			if failure := noAnswer(err, retry); failure != nil {
				return nil, nil, failure
			}
			continue
		}
		if resp.StatusCode < 400 {
			return resp, data, nil
		}
		failure := statusError(resp.StatusCode, resp.Header, data, requestID)
		if retry >= maxRetries || !retryableStatus(resp.StatusCode, failure.Code) {
			return nil, nil, failure
		}
		delay, ok := retryDelay(retry, resp.Header, s.maxRetryWait)
		if !ok {
			return nil, nil, failure
		}
		if err := sleep(ctx, delay); err != nil {
			return nil, nil, failure
		}
	}
}

// prepare builds what every attempt of a call sends: its headers (the same request id and idempotency key each
// time) and its JSON body.
func (c *Client) prepare(s *settings, cl *call) (http.Header, []byte, error) {
	header := c.header(s, newRequestID())
	var payload []byte
	if cl.body != nil {
		var err error
		if payload, err = json.Marshal(cl.body); err != nil {
			return nil, nil, fmt.Errorf("dataplatform: %s %s: the body cannot be sent as JSON: %w", cl.method, cl.path, err)
		}
		header["Content-Type"] = []string{"application/json"}
	} else if cl.content != nil && cl.contentType != "" {
		header["Content-Type"] = []string{cl.contentType}
	}
	for _, change := range s.headers {
		if change.remove {
			header.Del(change.name)
			if http.CanonicalHeaderKey(change.name) == "User-Agent" {
				header["User-Agent"] = []string{""} // net/http sends its own unless the header is there, empty
			}
		} else {
			header.Set(change.name, change.value)
		}
	}
	if s.ifMatch != "" {
		header.Set("If-Match", s.ifMatch)
	}
	if s.lastEventID != "" {
		header.Set("Last-Event-Id", s.lastEventID)
	}
	if cl.method != http.MethodGet && cl.method != http.MethodHead && !removed(s, "Idempotency-Key") {
		switch {
		case s.idempotencyKey != "":
			header.Set("Idempotency-Key", s.idempotencyKey)
		case header.Get("Idempotency-Key") == "":
			header.Set("Idempotency-Key", newIdempotencyKey())
		}
	}
	return header, payload, nil
}

// header is what every call sends: Accept, User-Agent, its request id and the credentials.
func (c *Client) header(s *settings, requestID string) http.Header {
	header := make(http.Header, 8)
	header["Accept"] = []string{"application/json"}
	header["User-Agent"] = []string{userAgent}
	header["X-Request-Id"] = []string{requestID}
	if s.apiKey != "" {
		header["X-Api-Key"] = []string{s.apiKey}
	}
	token := *c.token.Load()
	if s.tokenSet {
		token = s.token // a call's own WithToken
	}
	if token != "" {
		header["Authorization"] = []string{"Bearer " + token}
	}
	return header
}

func removed(s *settings, name string) bool {
	gone := false
	for _, change := range s.headers {
		if http.CanonicalHeaderKey(change.name) == name {
			gone = change.remove
		}
	}
	return gone
}

// rewindable returns a function giving the reader's content afresh for each attempt, or nil when it cannot.
func rewindable(r io.Reader) func() io.Reader {
	switch v := r.(type) {
	case *bytes.Reader:
		data, _ := io.ReadAll(v)
		return func() io.Reader { return bytes.NewReader(data) }
	case *strings.Reader:
		data, _ := io.ReadAll(v)
		return func() io.Reader { return bytes.NewReader(data) }
	case *bytes.Buffer:
		data := v.Bytes()
		return func() io.Reader { return bytes.NewReader(data) }
	}
	return nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// sleep waits, or returns the context's error when it ends first.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// connectionError is the Error of a failure without an answer; a refused default address says how to fix it.
func (c *Client) connectionError(err error, requestID string) *Error {
	message := fmt.Sprintf("dataplatform: connection error (%s): %v", c.baseURL, err)
	switch {
	case isTimeout(err) || errors.Is(err, context.DeadlineExceeded):
		message = fmt.Sprintf("dataplatform: request to %s timed out: %v", c.baseURL, err)
	case errors.Is(err, syscall.ECONNREFUSED) && c.defaultBaseURL:
		message = fmt.Sprintf("dataplatform: connection refused by %s, the default base address (neither the "+
			"WithBaseURL option nor the DATAPLATFORM_BASE_URL environment variable is set). Start the server there, "+
			"or point the client at yours with WithBaseURL or DATAPLATFORM_BASE_URL.", c.baseURL)
	case errors.Is(err, syscall.ECONNREFUSED):
		message = fmt.Sprintf("dataplatform: connection refused by %s: is the server running there?", c.baseURL)
	}
	return &Error{Message: message, RequestID: requestID, Err: err}
}

// Open sends one call to any path of the API and returns its answer unread, for a stream (an event stream, a
// download): the caller reads and closes the body. Never retried, and bounded by ctx only. An error answer is
// returned as an *Error, its body read.
func (c *Client) Open(ctx context.Context, method, path string, opts ...Option) (*http.Response, error) {
	resp, _, err := c.send(ctx, &call{method: method, path: path, stream: true}, opts)
	return resp, err
}
