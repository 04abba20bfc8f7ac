package webhooks

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A valid vector, sent to a receiver wrapped in Middleware at the vector's time.
func deliver(t *testing.T, v vector, secrets []string) (*httptest.ResponseRecorder, string) {
	t.Helper()
	reached := ""
	handler := Middleware(secrets, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		reached = string(body)
		w.WriteHeader(http.StatusNoContent)
	}), WithNow(func() time.Time { return time.Unix(v.Now, 0) }),
		WithTolerance(time.Duration(v.ToleranceSeconds)*time.Second))
	req := httptest.NewRequest(http.MethodPost, "/hooks", strings.NewReader(v.Body))
	for name, values := range header(t, v) {
		req.Header[name] = values
	}
	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, req)
	return rec, reached
}

func vectorByID(t *testing.T, id string) vector {
	for _, v := range loadVectors(t) {
		if v.ID == id {
			return v
		}
	}
	t.Fatalf("no vector %s", id)
	return vector{}
}

func TestMiddlewareHandsAVerifiedDeliveryOnWithItsBody(t *testing.T) {
	v := vectorByID(t, "valid-both-schemes")
	rec, reached := deliver(t, v, v.Secrets)
	if rec.Code != http.StatusNoContent {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	if reached != v.Body {
		t.Fatalf("the handler read %q, not the delivery's body", reached)
	}
}

func TestMiddlewareRefusesAForgedDeliveryWith401AndItsCode(t *testing.T) {
	v := vectorByID(t, "tampered-body")
	rec, reached := deliver(t, v, v.Secrets)
	if rec.Code != http.StatusUnauthorized {
		t.Fatalf("status %d, want 401", rec.Code)
	}
	if reached != "" {
		t.Fatal("the handler ran for a forged delivery")
	}
	var body struct{ Code string }
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Code != CodeInvalidSignature {
		t.Fatalf("body %s", rec.Body)
	}
}

func TestMiddlewareRefusesAnOversizedBodyWith413(t *testing.T) {
	v := vectorByID(t, "valid-both-schemes")
	v.Body = strings.Repeat("x", MaxBodyBytes+1)
	rec, reached := deliver(t, v, v.Secrets)
	if rec.Code != http.StatusRequestEntityTooLarge || reached != "" {
		t.Fatalf("status %d", rec.Code)
	}
}
