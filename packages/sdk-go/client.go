// Package dataplatform is the Go client of the dataplatform API: documents in collections, SQL and batch
// helpers, webhooks, keys and sessions.
//
//	c, err := dataplatform.NewClient(dataplatform.WithAPIKey("svc_..."))
//	order, err := c.Data.Get(ctx, "orders", id)
//	for doc, err := range c.Data.List(ctx, "orders", nil) { ... }
package dataplatform

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
)

// Version is the client's version, sent in its User-Agent.
const Version = "1.0.0"

var userAgent = "dataplatform-go/" + Version

// Client calls the API; its resources are fields (c.Data, c.Keys, c.Webhooks …). It is safe for concurrent use.
type Client struct {
	resources
	settings settings
	// baseURL is the server's address without a trailing slash.
	baseURL        string
	defaultBaseURL bool
	http           *http.Client
	token          atomic.Pointer[string]
	rateLimit      atomic.Pointer[RateLimit]
}

// NewClient makes a client. Options not given are read from DATAPLATFORM_API_KEY, DATAPLATFORM_TOKEN and
// DATAPLATFORM_BASE_URL (else DefaultBaseURL); the error tells an invalid base address.
func NewClient(opts ...Option) (*Client, error) {
	s := defaults()
	for _, opt := range opts {
		opt(&s)
	}
	return newClient(s)
}

// WithOptions is a client with these options changed, sending through the same transport:
// c.WithOptions(dataplatform.WithTimeout(5 * time.Second)).
func (c *Client) WithOptions(opts ...Option) (*Client, error) {
	s := c.settings
	s.headers = append([]headerChange(nil), c.settings.headers...)
	s.token, s.tokenSet = c.Token(), true
	if !c.defaultBaseURL {
		s.baseURL, s.baseURLSet = c.baseURL, true
	}
	s.httpClient = c.http
	for _, opt := range opts {
		opt(&s)
	}
	return newClient(s)
}

func newClient(s settings) (*Client, error) {
	given := s.baseURL
	address := given
	if !s.baseURLSet || given == "" {
		address = DefaultBaseURL
	}
	u, err := url.Parse(address)
	// `localhost:5000` parses with the scheme "localhost": the scheme is checked too.
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("dataplatform: invalid base URL %q: expected an http(s) address such as %s", given, DefaultBaseURL)
	}
	c := &Client{
		settings:       s,
		baseURL:        u.Scheme + "://" + u.Host + strings.TrimRight(u.Path, "/"),
		defaultBaseURL: !s.baseURLSet || given == "",
	}
	c.http = noRedirects(s.httpClient)
	// The client's token lives in c.token (SetToken changes it); settings.token is a call's own WithToken.
	token := s.token
	c.token.Store(&token)
	c.settings.token, c.settings.tokenSet = "", false
	c.resources.attach(c)
	return c, nil
}

// noRedirects is a copy of the given client (or a new one) that never follows a redirect.
func noRedirects(given *http.Client) *http.Client {
	copied := &http.Client{Transport: defaultTransport}
	if given != nil {
		*copied = *given
	}
	copied.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return copied
}

// BaseURL is the server's address in use, without a trailing slash.
func (c *Client) BaseURL() string { return c.baseURL }

// Token is the bearer token the client sends; empty when none.
func (c *Client) Token() string { return *c.token.Load() }

// SetToken sends `Authorization: Bearer token` from now on; an empty token stops sending one.
func (c *Client) SetToken(token string) { c.token.Store(&token) }

// RateLimit is an API key's rate limit, as an answer's RateLimit-* headers told it.
type RateLimit struct {
	// Limit is the number of requests allowed per minute.
	Limit int
	// Remaining is the number left in the current window.
	Remaining int
	// ResetSeconds is the time until the window resets.
	ResetSeconds int
}

// RateLimit is the key's rate limit as the last answer with RateLimit-* headers told it; nil before any.
func (c *Client) RateLimit() *RateLimit { return c.rateLimit.Load() }

func (c *Client) seen(header http.Header) {
	limit := header.Get("Ratelimit-Limit")
	if limit == "" { // most answers: keys without a limit, and routes that are not rate limited
		return
	}
	l, err1 := strconv.Atoi(limit)
	r, err2 := strconv.Atoi(header.Get("Ratelimit-Remaining"))
	s, err3 := strconv.Atoi(header.Get("Ratelimit-Reset"))
	if errors.Join(err1, err2, err3) == nil {
		c.rateLimit.Store(&RateLimit{Limit: l, Remaining: r, ResetSeconds: s})
	}
}
