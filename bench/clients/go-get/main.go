// GET by id through the Go client and through raw net/http on the same transport, in alternating rounds.
//
// Prints one JSON line: per target, the requests per second of each round. Run by bench/go.mjs:
// go run . <url> <api key> <document id> <rounds> <seconds> <workers>
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dataplatform/dataplatform-go"
)

func main() {
	if len(os.Args) != 7 {
		fmt.Fprintln(os.Stderr, "usage: goget <url> <api key> <document id> <rounds> <seconds> <workers>")
		os.Exit(2)
	}
	url, key, id := os.Args[1], os.Args[2], os.Args[3]
	rounds, _ := strconv.Atoi(os.Args[4])
	seconds, _ := strconv.ParseFloat(os.Args[5], 64)
	workers, _ := strconv.Atoi(os.Args[6])
	duration := time.Duration(seconds * float64(time.Second))

	// One transport for both, with room for every worker's connection.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = workers
	pool := &http.Client{Transport: transport}
	client, err := dataplatform.NewClient(dataplatform.WithBaseURL(url), dataplatform.WithAPIKey(key),
		dataplatform.WithHTTPClient(pool))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	target := url + "/api/v1/data/orders/" + id

	raw := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return err
		}
		req.Header.Set("X-Api-Key", key)
		req.Header.Set("Accept", "application/json")
		resp, err := pool.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		var doc map[string]any
		return json.Unmarshal(body, &doc)
	}
	viaClient := func() error {
		_, err := client.Data.Get(ctx, "orders", id)
		return err
	}

	// Not counted: opens the connections and warms the server's code paths for both.
	rate(raw, workers, duration/3)
	rate(viaClient, workers, duration/3)

	results := map[string][]float64{"raw": {}, "client": {}}
	for round := 0; round < rounds; round++ {
		order := []string{"raw", "client"}
		if round%2 == 1 {
			order = []string{"client", "raw"}
		}
		for _, name := range order {
			call := raw
			if name == "client" {
				call = viaClient
			}
			results[name] = append(results[name], rate(call, workers, duration))
		}
	}
	out, _ := json.Marshal(results)
	fmt.Println(string(out))
}

// rate is the requests per second of `workers` goroutines calling `call` in a loop for `duration`.
func rate(call func() error, workers int, duration time.Duration) float64 {
	var count atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(duration)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				if err := call(); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				count.Add(1)
			}
		}()
	}
	wg.Wait()
	return float64(count.Load()) / time.Since(start).Seconds()
}
