package dataplatform

import (
	"net/http"
	"os"
	"strings"
	"time"
)

const (
	// DefaultBaseURL is used when neither WithBaseURL nor DATAPLATFORM_BASE_URL is set.
	DefaultBaseURL = "http://localhost:5000"
	// DefaultTimeout bounds each attempt unless WithTimeout says otherwise.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxRetries is the number of retries after the first attempt unless WithMaxRetries says otherwise.
	DefaultMaxRetries = 2
	// DefaultMaxRetryWait is the longest Retry-After wait sat through: it covers the API's `Retry-After: 60`.
	DefaultMaxRetryWait = 60 * time.Second
)

// Option sets an option of a client (NewClient) or of one call (the last arguments of every method), where it
// overrides the client's own for that call only.
type Option func(*settings)

type headerChange struct {
	name   string
	value  string
	remove bool
}

// settings are a client's options, or one call's: the client's with the call's options applied.
type settings struct {
	apiKey, token, baseURL          string
	apiKeySet, tokenSet, baseURLSet bool
	timeout                         time.Duration
	maxRetries                      int
	maxRetryWait                    time.Duration
	headers                         []headerChange
	httpClient                      *http.Client
	idempotencyKey                  string
	ifMatch                         string
	lastEventID                     string
}

// WithAPIKey sends `X-API-Key: key`; an empty key sends none. Default: DATAPLATFORM_API_KEY.
func WithAPIKey(key string) Option {
	return func(s *settings) { s.apiKey, s.apiKeySet = key, true }
}

// WithToken sends `Authorization: Bearer token`; an empty token sends none. Default: DATAPLATFORM_TOKEN.
func WithToken(token string) Option {
	return func(s *settings) { s.token, s.tokenSet = token, true }
}

// WithBaseURL sets the server's address, such as https://data.example.com. Default: DATAPLATFORM_BASE_URL, else
// DefaultBaseURL. A client option only.
func WithBaseURL(url string) Option {
	return func(s *settings) { s.baseURL, s.baseURLSet = url, true }
}

// WithTimeout bounds each attempt of a call (an event stream is bounded by its context only).
func WithTimeout(d time.Duration) Option {
	return func(s *settings) { s.timeout = d }
}

// WithMaxRetries sets how many times a call is retried after its first attempt; 0 never retries.
func WithMaxRetries(n int) Option {
	return func(s *settings) { s.maxRetries = n }
}

// WithMaxRetryWait sets the longest server-requested (Retry-After) wait sat through; a longer one fails at once.
func WithMaxRetryWait(d time.Duration) Option {
	return func(s *settings) { s.maxRetryWait = d }
}

// WithHeader sends a header (replacing one the client would send).
func WithHeader(name, value string) Option {
	return func(s *settings) { s.headers = append(s.headers, headerChange{name: name, value: value}) }
}

// WithoutHeader removes a header the client would send, such as Idempotency-Key.
func WithoutHeader(name string) Option {
	return func(s *settings) { s.headers = append(s.headers, headerChange{name: name, remove: true}) }
}

// WithHTTPClient sends through this client's transport (its redirect policy is replaced: redirects are never
// followed, a redirect route hands back its Location). A client option only.
func WithHTTPClient(client *http.Client) Option {
	return func(s *settings) { s.httpClient = client }
}

// WithIdempotencyKey sets the Idempotency-Key of a write; a random one is sent when left out, the same on every
// attempt, so a retry never writes twice.
func WithIdempotencyKey(key string) Option {
	return func(s *settings) { s.idempotencyKey = key }
}

// WithIfMatch sends `If-Match: etag` on a write to a document: the write happens only if the document is still
// that version, else an *Error with Status 412 and nothing is written.
func WithIfMatch(etag string) Option {
	return func(s *settings) { s.ifMatch = etag }
}

// WithLastEventID resumes an event stream after the event with this id.
func WithLastEventID(id string) Option {
	return func(s *settings) { s.lastEventID = id }
}

// defaults are a new client's settings before its options: the environment's, else the package's defaults.
// The environment is read here only, once per NewClient, never while a call runs.
func defaults() settings {
	s := settings{timeout: DefaultTimeout, maxRetries: DefaultMaxRetries, maxRetryWait: DefaultMaxRetryWait}
	if v := env("DATAPLATFORM_API_KEY"); v != "" {
		s.apiKey, s.apiKeySet = v, true
	}
	if v := env("DATAPLATFORM_TOKEN"); v != "" {
		s.token, s.tokenSet = v, true
	}
	if v := env("DATAPLATFORM_BASE_URL"); v != "" {
		s.baseURL, s.baseURLSet = v, true
	}
	return s
}

// env reads a variable, an empty or blank value counting as unset.
func env(name string) string {
	return strings.TrimSpace(os.Getenv(name))
}

// with returns s with the call's options applied; s itself is never changed (a client's settings are shared by
// its concurrent calls).
func (s *settings) with(opts []Option) *settings {
	if len(opts) == 0 {
		return s
	}
	copied := *s
	copied.headers = append([]headerChange(nil), s.headers...)
	for _, opt := range opts {
		opt(&copied)
	}
	return &copied
}

// Ptr is a pointer to v, for the optional fields of params and bodies:
// &dataplatform.DataListParams{Limit: dataplatform.Ptr(int64(100)), Sort: dataplatform.Ptr("-total")}.
func Ptr[T any](v T) *T { return &v }
