package dataplatform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// server answers with handle and counts the requests it sees.
func server(t *testing.T, handle http.HandlerFunc) (*Client, *atomic.Int32) {
	t.Helper()
	var count atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		count.Add(1)
		handle(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := NewClient(WithBaseURL(srv.URL+"/"), WithAPIKey("svc_test"), WithToken(""), WithMaxRetryWait(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return c, &count
}

func answer(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

func TestAnErrorAnswerIsAnErrorWithCodeRequestIDAndStatus(t *testing.T) {
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		answer(w, 404, map[string]any{"error": "No such document", "code": "not_found", "requestId": "req_abc", "details": map[string]any{"id": "x"}})
	})
	_, err := c.Data.Get(context.Background(), "orders", "x")
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("not an *Error: %v", err)
	}
	if apiErr.Status != 404 || apiErr.Code != CodeNotFound || apiErr.RequestID != "req_abc" || apiErr.Message != "No such document" {
		t.Fatalf("%+v", apiErr)
	}
	if !errors.Is(err, ErrNotFound) || errors.Is(err, ErrConflict) || errors.Is(err, ErrConnection) {
		t.Fatal("errors.Is tells the wrong kind")
	}
	if err.Error() != "404 not_found: No such document" {
		t.Fatalf("message %q", err.Error())
	}
}

func TestAnErrorWithoutARequestIDInItsBodyTakesTheOneSent(t *testing.T) {
	var sent string
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		sent = r.Header.Get("X-Request-Id")
		w.WriteHeader(502)
		_, _ = w.Write([]byte("<html>bad gateway</html>"))
	})
	_, err := c.Keys.List(context.Background(), WithMaxRetries(0))
	var apiErr *Error
	if !errors.As(err, &apiErr) || !errors.Is(err, ErrServer) {
		t.Fatalf("%v", err)
	}
	if sent == "" || apiErr.RequestID != sent || !strings.Contains(apiErr.Message, "bad gateway") {
		t.Fatalf("%+v (sent %q)", apiErr, sent)
	}
}

func TestA503IsRetriedAfterRetryAfterWithTheSameIdempotencyKeyAndRequestID(t *testing.T) {
	var mu sync.Mutex
	var keys, ids []string
	c, count := server(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		ids = append(ids, r.Header.Get("X-Request-Id"))
		first := len(keys) == 1
		mu.Unlock()
		if first {
			w.Header().Set("Retry-After", "0")
			answer(w, 503, map[string]any{"error": "busy", "code": "unavailable"})
			return
		}
		answer(w, 201, map[string]any{"_id": "a1", "_createdAt": "t", "_updatedAt": "t", "total": 3})
	})
	doc, err := c.Data.Create(context.Background(), "orders", map[string]any{"total": 3})
	if err != nil {
		t.Fatal(err)
	}
	if doc["_id"] != "a1" || count.Load() != 2 {
		t.Fatalf("doc %v after %d attempts", doc, count.Load())
	}
	if keys[0] == "" || keys[0] != keys[1] || ids[0] != ids[1] {
		t.Fatalf("keys %v ids %v", keys, ids)
	}
}

func TestAFinalConflictIsNotRetried(t *testing.T) {
	c, count := server(t, func(w http.ResponseWriter, r *http.Request) {
		answer(w, 409, map[string]any{"error": "duplicate", "code": "conflict"})
	})
	_, err := c.Data.Create(context.Background(), "orders", map[string]any{"_id": "a"})
	if !errors.Is(err, ErrConflict) || count.Load() != 1 {
		t.Fatalf("%v after %d attempts", err, count.Load())
	}
}

func TestARetryAfterLongerThanTheMaximumWaitFailsAtOnce(t *testing.T) {
	c, count := server(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "60")
		answer(w, 429, map[string]any{"error": "slow down", "code": "rate_limited"})
	})
	_, err := c.Keys.List(context.Background())
	if !errors.Is(err, ErrRateLimited) || count.Load() != 1 {
		t.Fatalf("%v after %d attempts", err, count.Load())
	}
}

func TestRetriesStopAtMaxRetries(t *testing.T) {
	c, count := server(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After-Ms", "1")
		answer(w, 500, map[string]any{"error": "boom", "code": "internal"})
	})
	_, err := c.Keys.List(context.Background(), WithMaxRetries(3))
	if !errors.Is(err, ErrServer) || count.Load() != 4 {
		t.Fatalf("%v after %d attempts", err, count.Load())
	}
}

func TestACallerIdempotencyKeyIfMatchAndHeadersAreSent(t *testing.T) {
	var got http.Header
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		answer(w, 200, map[string]any{"_id": "a", "_createdAt": "t", "_updatedAt": "t"})
	})
	_, err := c.Data.Update(context.Background(), "orders", "a", map[string]any{"x": 1},
		WithIdempotencyKey("k-1"), WithIfMatch(`"v1"`), WithHeader("X-Cluster-Id", "c1"), WithoutHeader("User-Agent"))
	if err != nil {
		t.Fatal(err)
	}
	if got.Get("Idempotency-Key") != "k-1" || got.Get("If-Match") != `"v1"` || got.Get("X-Cluster-Id") != "c1" {
		t.Fatalf("%v", got)
	}
	if got.Get("X-Api-Key") != "svc_test" || got.Get("Content-Type") != "application/json" || got.Get("User-Agent") != "" {
		t.Fatalf("%v", got)
	}
}

func TestAReadSendsNoIdempotencyKeyAndPathSegmentsAreEscaped(t *testing.T) {
	var got *http.Request
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		got = r
		answer(w, 200, map[string]any{"_id": "a/b", "_createdAt": "t", "_updatedAt": "t"})
	})
	if _, err := c.Data.Get(context.Background(), "my orders", "a/b?c"); err != nil {
		t.Fatal(err)
	}
	if got.Header.Get("Idempotency-Key") != "" || got.URL.EscapedPath() != "/api/v1/data/my%20orders/a%2Fb%3Fc" {
		t.Fatalf("%s %v", got.URL.EscapedPath(), got.Header)
	}
	if _, err := c.Data.Get(context.Background(), "orders", ""); err == nil {
		t.Fatal("an empty id was sent")
	}
}

func TestRangingOverAListWalksEveryPage(t *testing.T) {
	c, count := server(t, func(w http.ResponseWriter, r *http.Request) {
		var skip, limit int
		fmt.Sscan(r.URL.Query().Get("skip"), &skip)
		fmt.Sscan(r.URL.Query().Get("limit"), &limit)
		data := []map[string]any{}
		for i := skip; i < min(skip+limit, 5); i++ {
			data = append(data, map[string]any{"_id": fmt.Sprint(i)})
		}
		answer(w, 200, map[string]any{"data": data, "total": 5, "limit": limit, "skip": skip})
	})
	limit := int64(2)
	var ids []string
	for doc, err := range c.Data.List(context.Background(), "orders", &DataListParams{Limit: &limit}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, doc["_id"].(string))
	}
	if strings.Join(ids, ",") != "0,1,2,3,4" || count.Load() != 3 {
		t.Fatalf("%v in %d requests", ids, count.Load())
	}
	page, err := c.Data.ListPage(context.Background(), "orders", &DataListParams{Limit: &limit})
	if err != nil || len(page.Data) != 2 || !page.HasNext() || page.Total != 5 {
		t.Fatalf("%v %+v", err, page)
	}
}

func TestBreakingOutOfAListFetchesNoMorePages(t *testing.T) {
	c, count := server(t, func(w http.ResponseWriter, r *http.Request) {
		answer(w, 200, map[string]any{"data": []map[string]any{{"_id": "a"}, {"_id": "b"}}, "total": 100, "limit": 2, "skip": 0})
	})
	for range c.Data.List(context.Background(), "orders", nil) {
		break
	}
	if count.Load() != 1 {
		t.Fatalf("%d requests", count.Load())
	}
}

func TestAListErrorIsTheLastPair(t *testing.T) {
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		answer(w, 403, map[string]any{"error": "no", "code": "insufficient_scope"})
	})
	var errs []error
	for _, err := range c.Data.List(context.Background(), "orders", nil) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], ErrForbidden) {
		t.Fatalf("%v", errs)
	}
}

type order struct {
	ID    string  `json:"_id"`
	Total float64 `json:"total"`
}

func TestACollectionDecodesDocumentsIntoItsType(t *testing.T) {
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		answer(w, 200, map[string]any{"_id": "o1", "_createdAt": "t", "_updatedAt": "t", "total": 42.5})
	})
	got, err := CollectionOf[order](c, "orders").Get(context.Background(), "o1")
	if err != nil || got != (order{ID: "o1", Total: 42.5}) {
		t.Fatalf("%v %+v", err, got)
	}
}

func TestNoAnswerIsAConnectionErrorAndTheDefaultAddressSaysHowToFixIt(t *testing.T) {
	t.Setenv("DATAPLATFORM_BASE_URL", "")
	srv := httptest.NewServer(http.NotFoundHandler())
	address := srv.URL
	srv.Close()
	c, _ := NewClient(WithBaseURL(address), WithMaxRetries(0))
	_, err := c.Keys.List(context.Background())
	if !errors.Is(err, ErrConnection) || errors.Is(err, ErrStatus) {
		t.Fatalf("%v", err)
	}
	def, _ := NewClient(WithMaxRetries(0))
	if def.BaseURL() != DefaultBaseURL {
		t.Skip("something listens on the default address")
	}
	if _, err := def.Keys.List(context.Background()); err != nil && errors.Is(err, ErrConnection) &&
		!strings.Contains(err.Error(), "DATAPLATFORM_BASE_URL") {
		t.Fatalf("%v", err)
	}
}

func TestATimedOutAttemptIsATimeout(t *testing.T) {
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	_, err := c.Keys.List(context.Background(), WithTimeout(20*time.Millisecond), WithMaxRetries(0))
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%v", err)
	}
}

func TestOptionsFallBackOnTheEnvironment(t *testing.T) {
	t.Setenv("DATAPLATFORM_API_KEY", "svc_env")
	t.Setenv("DATAPLATFORM_TOKEN", "tok_env")
	var got http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		answer(w, 200, map[string]any{"data": []any{}})
	}))
	defer srv.Close()
	t.Setenv("DATAPLATFORM_BASE_URL", srv.URL)
	c, err := NewClient()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Keys.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got.Get("X-Api-Key") != "svc_env" || got.Get("Authorization") != "Bearer tok_env" {
		t.Fatalf("%v", got)
	}
	// An option given wins, even an empty one.
	c, _ = NewClient(WithAPIKey(""))
	c.SetToken("tok_new")
	if _, err := c.Keys.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got.Get("X-Api-Key") != "" || got.Get("Authorization") != "Bearer tok_new" {
		t.Fatalf("%v", got)
	}
}

func TestAnInvalidBaseURLIsRefused(t *testing.T) {
	for _, address := range []string{"localhost:5000", "ftp://h", "http://"} {
		if _, err := NewClient(WithBaseURL(address)); err == nil {
			t.Errorf("%s was taken", address)
		}
	}
}

func TestTheRateLimitHeadersAreKept(t *testing.T) {
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("RateLimit-Limit", "100")
		w.Header().Set("RateLimit-Remaining", "99")
		w.Header().Set("RateLimit-Reset", "42")
		answer(w, 200, map[string]any{"data": []any{}})
	})
	if c.RateLimit() != nil {
		t.Fatal("a rate limit before any answer")
	}
	if _, err := c.Keys.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := c.RateLimit(); got == nil || *got != (RateLimit{Limit: 100, Remaining: 99, ResetSeconds: 42}) {
		t.Fatalf("%+v", got)
	}
}

func TestARedirectRouteHandsBackItsLocation(t *testing.T) {
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://accounts.example.com/o/oauth2", http.StatusFound)
	})
	location, err := c.Auth.Google(context.Background(), nil)
	if err != nil || location != "https://accounts.example.com/o/oauth2" {
		t.Fatalf("%v %q", err, location)
	}
}

func TestAnEventStreamYieldsItsEvents(t *testing.T) {
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") != "text/event-stream" || r.Header.Get("Last-Event-Id") != "7" {
			answer(w, 400, map[string]any{"error": "headers", "code": "validation_error"})
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte(": keep-alive\n\nid: 8\nevent: document.created\ndata: {\"a\":\ndata: 1}\n\nid: 9\ndata: {}\n\n"))
	})
	var got []ServerSentEvent
	for event, err := range c.Data.Changes(context.Background(), "orders", nil, WithLastEventID("7")) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, event)
	}
	want := []ServerSentEvent{{ID: "8", Event: "document.created", Data: "{\"a\":\n1}"}, {ID: "9", Data: "{}"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%+v", got)
	}
}

func TestConcurrentCallsShareOneClient(t *testing.T) {
	c, count := server(t, func(w http.ResponseWriter, r *http.Request) {
		answer(w, 200, map[string]any{"_id": r.URL.Path, "_createdAt": "t", "_updatedAt": "t"})
	})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetToken(fmt.Sprint("tok", i))
			if _, err := c.Data.Get(context.Background(), "orders", fmt.Sprint(i), WithHeader("X-N", fmt.Sprint(i))); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if count.Load() != 16 {
		t.Fatalf("%d requests", count.Load())
	}
}

func TestABodyTheServerRefusesBeforeReadingItGetsTheServersAnswer(t *testing.T) {
	// As a server does for a body past its limit: answer 413 at once and close without reading the body.
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	go func() {
		for {
			conn, err := listener.Accept()
			if err != nil {
				return
			}
			go func() {
				buf := make([]byte, 4096)
				_, _ = conn.Read(buf)
				body := `{"error":"Body too large","code":"payload_too_large","requestId":"req_x"}`
				fmt.Fprintf(conn, "HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
				conn.Close()
			}()
		}
	}()
	c, _ := NewClient(WithBaseURL("http://"+listener.Addr().String()), WithMaxRetries(0))
	big := strings.Repeat("x", 8<<20)
	_, err = c.Data.Create(context.Background(), "orders", map[string]any{"blob": big})
	if !errors.Is(err, ErrPayloadTooLarge) {
		t.Fatalf("%v", err)
	}
}

func TestSigningInCanMakeTheClientSendTheSessionsToken(t *testing.T) {
	var authorization atomic.Value
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		authorization.Store(r.Header.Get("Authorization"))
		if r.URL.Path == "/api/auth/signin" {
			answer(w, 200, map[string]any{"user": map[string]any{"_id": "u"}, "token": "tok_session", "expiresAt": "t"})
			return
		}
		answer(w, 200, map[string]any{"data": []any{}})
	})
	if _, err := c.Auth.SigninAndUseToken(context.Background(), SignInRequest{Email: "a@example.com", Password: "pw"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Keys.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	if authorization.Load() != "Bearer tok_session" || c.Token() != "tok_session" {
		t.Fatalf("%v", authorization.Load())
	}
}

func TestWithOptionsChangesSomeOptionsAndKeepsTheRest(t *testing.T) {
	var got http.Header
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		answer(w, 200, map[string]any{"data": []any{}})
	})
	c.SetToken("tok_a")
	other, err := c.WithOptions(WithAPIKey("svc_other"), WithHeader("X-Cluster-Id", "c2"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Keys.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got.Get("X-Api-Key") != "svc_other" || got.Get("Authorization") != "Bearer tok_a" || got.Get("X-Cluster-Id") != "c2" {
		t.Fatalf("%v", got)
	}
	if _, err := c.Keys.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got.Get("X-Api-Key") != "svc_test" || got.Get("X-Cluster-Id") != "" {
		t.Fatalf("the first client changed: %v", got)
	}
}

func TestAStreamThatBreaksOffEndsWithAnError(t *testing.T) {
	c, _ := server(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Content-Length", "1000") // promises more than it sends
		_, _ = w.Write([]byte("id: 1\ndata: {}\n\n"))
	})
	var events int
	var last error
	for _, err := range c.Data.Changes(context.Background(), "orders", nil) {
		if err != nil {
			last = err
			continue
		}
		events++
	}
	if events != 1 || !errors.Is(last, ErrConnection) {
		t.Fatalf("%d events, then %v", events, last)
	}
}
