package dataplatform_test

import (
	"context"
	"errors"
	"fmt"
	"log"

	dataplatform "github.com/dataplatform/dataplatform-go"
)

type Order struct {
	ID       string  `json:"_id,omitempty"`
	Customer string  `json:"customer"`
	Total    float64 `json:"total"`
}

func ExampleNewClient() {
	// Options not given come from DATAPLATFORM_API_KEY, DATAPLATFORM_TOKEN and DATAPLATFORM_BASE_URL.
	c, err := dataplatform.NewClient(dataplatform.WithAPIKey("svc_..."), dataplatform.WithMaxRetries(4))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	params := &dataplatform.DataListParams{Limit: dataplatform.Ptr(int64(100)), Sort: dataplatform.Ptr("-total")}
	for doc, err := range c.Data.List(ctx, "orders", params) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(doc["_id"], doc["total"])
	}
}

func ExampleCollectionOf() {
	c, err := dataplatform.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	orders := dataplatform.CollectionOf[Order](c, "orders")
	created, err := orders.Create(context.Background(), Order{Customer: "ada", Total: 42})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(created.ID)
}

func ExampleError() {
	c, err := dataplatform.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.Data.Get(context.Background(), "orders", "nope")
	var apiErr *dataplatform.Error
	switch {
	case errors.Is(err, dataplatform.ErrNotFound):
		fmt.Println("no such order")
	case errors.As(err, &apiErr):
		fmt.Println(apiErr.Status, apiErr.Code, apiErr.RequestID)
	}
}
