package webhooks

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

type vector struct {
	ID               string                     `json:"id"`
	Secrets          []string                   `json:"secrets"`
	Body             string                     `json:"body"`
	Headers          map[string]json.RawMessage `json:"headers"`
	Now              int64                      `json:"now"`
	ToleranceSeconds int64                      `json:"toleranceSeconds"`
	Expected         struct {
		Valid bool   `json:"valid"`
		Code  string `json:"code"`
	} `json:"expected"`
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "spec", "webhooks", "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []vector `json:"vectors"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) == 0 {
		t.Fatal("no vectors")
	}
	return file.Vectors
}

// header holds the vector's headers as a receiver's http.Header does: names canonical, repeated lines kept apart.
func header(t *testing.T, v vector) http.Header {
	h := http.Header{}
	for name, raw := range v.Headers {
		var many []string
		if json.Unmarshal(raw, &many) == nil {
			for _, each := range many {
				h.Add(name, each)
			}
			continue
		}
		var one string
		if err := json.Unmarshal(raw, &one); err != nil {
			t.Fatalf("%s: header %s is neither a string nor a list", v.ID, name)
		}
		h.Add(name, one)
	}
	return h
}

func TestEveryVectorGetsItsExpectedResult(t *testing.T) {
	for _, v := range loadVectors(t) {
		t.Run(v.ID, func(t *testing.T) {
			t.Parallel()
			err := Verify([]byte(v.Body), header(t, v), v.Secrets,
				WithTolerance(time.Duration(v.ToleranceSeconds)*time.Second),
				WithNow(func() time.Time { return time.Unix(v.Now, 0) }))
			if v.Expected.Valid {
				if err != nil {
					t.Fatalf("expected valid, got %v", err)
				}
				return
			}
			var failure *VerificationError
			if !errors.As(err, &failure) {
				t.Fatalf("expected %s, got %v", v.Expected.Code, err)
			}
			if failure.Code != v.Expected.Code {
				t.Fatalf("expected %s, got %s (%s)", v.Expected.Code, failure.Code, failure.Message)
			}
		})
	}
}
