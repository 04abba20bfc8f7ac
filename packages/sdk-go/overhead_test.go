package dataplatform

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// cannedTransport answers every request at once with the same document, so a benchmark measures what the client
// adds to a call and nothing of the network or a server. `pnpm bench:go` runs these benchmarks.
type cannedTransport struct{}

const cannedDocument = `{"_id":"01KDX3Q5WHZ8P3YB6E0G2T4M5N","_createdAt":"2026-01-01T00:00:00.000Z","_updatedAt":"2026-01-01T00:00:00.000Z","customer":"ada","total":42,"items":[{"sku":"a","qty":2}]}`

func (cannedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: 200,
		Header:     http.Header{"Content-Type": []string{"application/json"}},
		Body:       io.NopCloser(strings.NewReader(cannedDocument)),
		Request:    req,
	}, nil
}

func BenchmarkGetByIDRawNetHTTP(b *testing.B) {
	pool := &http.Client{Transport: cannedTransport{}}
	ctx := context.Background()
	b.ReportAllocs()
	for range b.N {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://h.test/api/v1/data/orders/01KDX3Q5WHZ8P3YB6E0G2T4M5N", nil)
		req.Header.Set("X-Api-Key", "svc_test")
		req.Header.Set("Accept", "application/json")
		resp, err := pool.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var doc map[string]any
		if err := json.Unmarshal(body, &doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGetByIDClient(b *testing.B) {
	c, err := NewClient(WithBaseURL("http://h.test"), WithAPIKey("svc_test"),
		WithHTTPClient(&http.Client{Transport: cannedTransport{}}))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for range b.N {
		if _, err := c.Data.Get(ctx, "orders", "01KDX3Q5WHZ8P3YB6E0G2T4M5N"); err != nil {
			b.Fatal(err)
		}
	}
}
