package conformance

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// Every case of spec/conformance through the Go client, against the reference server named by
// DATAPLATFORM_CONFORMANCE_URL (the vitest project sdk-go starts one per engine). Cases run side by side (`go test
// -parallel`), as the other runners run them: each signs its own users up and names its own collections.
func TestConformance(t *testing.T) {
	baseURL := os.Getenv("DATAPLATFORM_CONFORMANCE_URL")
	if baseURL == "" {
		t.Skip("DATAPLATFORM_CONFORMANCE_URL names no reference server")
	}
	cases, err := LoadCases(filepath.Join("..", "..", "..", "spec", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases found")
	}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			if reason := c.SkipReason(); reason != "" {
				t.Skip(reason)
			}
			t.Parallel()
			if err := Run(context.Background(), c, baseURL); err != nil {
				t.Fatal(err)
			}
		})
	}
}
