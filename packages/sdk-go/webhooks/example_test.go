package webhooks_test

import (
	"errors"
	"io"
	"log"
	"net/http"
	"os"

	"github.com/dataplatform/dataplatform-go/webhooks"
)

func ExampleMiddleware() {
	orders := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		event, _ := io.ReadAll(r.Body) // a verified delivery: the body as it was signed
		log.Printf("delivery %s", event)
		w.WriteHeader(http.StatusNoContent)
	})
	http.Handle("/hooks/orders", webhooks.Middleware([]string{os.Getenv("WEBHOOK_SECRET")}, orders))
}

func ExampleVerify() {
	http.HandleFunc("/hooks/orders", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		err := webhooks.Verify(body, r.Header, []string{os.Getenv("WEBHOOK_SECRET")})
		var failure *webhooks.VerificationError
		if errors.As(err, &failure) {
			http.Error(w, failure.Code, http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
