// Package live calls the reference server through the client's own methods (generated and hand-written), as a
// program would: documents, typed collections, pages, idempotent replays, SQL, batches, imports and the change
// stream. The vitest project sdk-go runs it against the server of each engine, beside the conformance cases.
package live

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	dataplatform "github.com/dataplatform/dataplatform-go"
)

// client is a client of the server named by DATAPLATFORM_CONFORMANCE_URL with the key DATAPLATFORM_LIVE_API_KEY.
func client(t *testing.T) *dataplatform.Client {
	t.Helper()
	url, key := os.Getenv("DATAPLATFORM_CONFORMANCE_URL"), os.Getenv("DATAPLATFORM_LIVE_API_KEY")
	if url == "" || key == "" {
		t.Skip("DATAPLATFORM_CONFORMANCE_URL and DATAPLATFORM_LIVE_API_KEY name no reference server")
	}
	t.Parallel()
	c, err := dataplatform.NewClient(dataplatform.WithBaseURL(url), dataplatform.WithAPIKey(key))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// collection is a name no other test uses.
func collection(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + "_" + hex.EncodeToString(b)
}

type order struct {
	ID       string  `json:"_id,omitempty"`
	Customer string  `json:"customer"`
	Total    float64 `json:"total"`
}

func TestLiveDocumentsRoundTrip(t *testing.T) {
	c := client(t)
	ctx := context.Background()
	name := collection("orders")
	created, err := c.Data.Create(ctx, name, order{Customer: "ada", Total: 42})
	if err != nil {
		t.Fatal(err)
	}
	id, _ := created["_id"].(string)
	if id == "" || created["customer"] != "ada" {
		t.Fatalf("created %v", created)
	}
	if _, err := c.Data.Update(ctx, name, id, map[string]any{"total": 43}); err != nil {
		t.Fatal(err)
	}
	orders := dataplatform.CollectionOf[order](c, name)
	got, err := orders.Get(ctx, id)
	if err != nil || got != (order{ID: id, Customer: "ada", Total: 43}) {
		t.Fatalf("%v %+v", err, got)
	}
	if _, err := orders.Replace(ctx, id, map[string]any{"customer": "grace", "total": 1}); err != nil {
		t.Fatal(err)
	}
	if err := orders.Delete(ctx, id); err != nil {
		t.Fatal(err)
	}
	_, err = orders.Get(ctx, id)
	var apiErr *dataplatform.Error
	if !errors.As(err, &apiErr) || !errors.Is(err, dataplatform.ErrNotFound) || apiErr.Code != dataplatform.CodeNotFound ||
		apiErr.RequestID == "" {
		t.Fatalf("after delete: %v", err)
	}
}

func TestLiveAListIsWalkedPageByPage(t *testing.T) {
	c := client(t)
	ctx := context.Background()
	name := collection("pages")
	for i := range 5 {
		if _, err := c.Data.Create(ctx, name, map[string]any{"n": i}); err != nil {
			t.Fatal(err)
		}
	}
	params := &dataplatform.DataListParams{Limit: dataplatform.Ptr(int64(2)), Sort: dataplatform.Ptr("n")}
	var seen []float64
	for doc, err := range c.Data.List(ctx, name, params) {
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, doc["n"].(float64))
	}
	if len(seen) != 5 || seen[0] != 0 || seen[4] != 4 {
		t.Fatalf("walked %v", seen)
	}
	page, err := c.Data.ListPage(ctx, name, params)
	if err != nil || page.Total != 5 || len(page.Data) != 2 || !page.HasNext() {
		t.Fatalf("%v %+v", err, page)
	}
}

func TestLiveARepeatedWriteWithItsIdempotencyKeyIsStoredOnce(t *testing.T) {
	c := client(t)
	ctx := context.Background()
	name := collection("replays")
	key := dataplatform.WithIdempotencyKey(collection("key"))
	first, err := c.Data.Create(ctx, name, map[string]any{"a": 1}, key)
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.Data.Create(ctx, name, map[string]any{"a": 1}, key)
	if err != nil || again["_id"] != first["_id"] {
		t.Fatalf("%v: %v then %v", err, first["_id"], again["_id"])
	}
	page, err := c.Data.ListPage(ctx, name, nil)
	if err != nil || page.Total != 1 {
		t.Fatalf("%v %+v", err, page)
	}
}

func TestLiveSQLBatchAndImport(t *testing.T) {
	c := client(t)
	ctx := context.Background()
	name := collection("sales")
	job, err := c.Data.Import(ctx, name, strings.NewReader("{\"total\":5}\n{\"total\":50}\n{\"total\":500}\n"),
		"application/x-ndjson", &dataplatform.DataImportParams{Format: dataplatform.Ptr("ndjson")})
	if err != nil {
		t.Fatal(err)
	}
	if job.Status != "succeeded" {
		t.Fatalf("import job %+v", job)
	}
	batch, err := c.Data.Batch(ctx, dataplatform.DataBatchBody{
		Operations:  []dataplatform.BatchOperation{map[string]any{"op": "insert", "collection": name, "data": map[string]any{"total": 5000}}},
		Transaction: dataplatform.Ptr(true),
	})
	if err != nil || len(batch.Results) != 1 || !batch.Transaction {
		t.Fatalf("%v %+v", err, batch)
	}
	result, err := c.Data.Sql(ctx, dataplatform.SqlRequest{Sql: "SELECT * FROM " + name + " WHERE total > ? ORDER BY total", Params: []any{10}})
	if err != nil {
		t.Fatal(err)
	}
	if len(result.Data) != 3 || result.Data[0]["total"] != float64(50) {
		t.Fatalf("rows %v", result.Data)
	}
}

func TestLiveTheChangeStreamYieldsAWrite(t *testing.T) {
	c := client(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	name := collection("changes")
	go func() {
		// The stream is open by the time the first write lands; a few writes cover a slow start.
		for i := 0; i < 20 && ctx.Err() == nil; i++ {
			_, _ = c.Data.Create(ctx, name, map[string]any{"i": i})
			time.Sleep(200 * time.Millisecond)
		}
	}()
	for event, err := range c.Data.Changes(ctx, name, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if event.Event == "document.created" && strings.Contains(event.Data, `"collection":"`+name+`"`) && event.ID != "" {
			return
		}
	}
	t.Fatal("the stream ended without an event")
}
