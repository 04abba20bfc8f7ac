package webhooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
)

// MaxBodyBytes is the largest delivery body Middleware reads; a larger one is refused with 413.
const MaxBodyBytes = 4 << 20

// Middleware verifies every request before next sees it: a delivery that fails is answered 401 with
// `{"error": ..., "code": ...}` (the VerificationError's code) and never reaches next; one that passes reaches next
// with its body intact, ready to be read again.
//
//	http.Handle("/hooks/orders", webhooks.Middleware([]string{os.Getenv("WEBHOOK_SECRET")}, handler))
func Middleware(secrets []string, next http.Handler, opts ...Option) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				refuse(w, http.StatusRequestEntityTooLarge, "payload_too_large", "the delivery's body is too large")
				return
			}
			refuse(w, http.StatusBadRequest, "invalid_body", "the delivery's body could not be read")
			return
		}
		if err := Verify(body, r.Header, secrets, opts...); err != nil {
			var failure *VerificationError
			errors.As(err, &failure)
			refuse(w, http.StatusUnauthorized, failure.Code, failure.Message)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

func refuse(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": message, "code": code})
}
