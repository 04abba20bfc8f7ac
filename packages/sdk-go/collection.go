package dataplatform

import (
	"context"
	"iter"
)

// Collection is a typed handle on one collection: its documents are decoded into T, a struct of the document's
// fields (with `json:"_id,omitempty"` for its id, so that a new document gets one) or any other type
// encoding/json reads.
//
//	orders := dataplatform.CollectionOf[Order](c, "orders")
//	order, err := orders.Get(ctx, id)
type Collection[T any] struct {
	client *Client
	name   string
}

// CollectionOf is a typed handle on the collection `name`.
func CollectionOf[T any](c *Client, name string) *Collection[T] {
	return &Collection[T]{client: c, name: name}
}

// Name is the collection's name.
func (col *Collection[T]) Name() string { return col.name }

func (col *Collection[T]) send(ctx context.Context, method, path string, err error, body any, opts []Option) (T, error) {
	var out T
	if err == nil {
		err = col.client.call(ctx, &call{method: method, path: path, body: body}, &out, opts)
	}
	return out, err
}

func (col *Collection[T]) document(id string) (string, error) {
	return buildPath("/api/v1/data/{collection}/{id}", col.name, id)
}

// Get reads a document.
func (col *Collection[T]) Get(ctx context.Context, id string, opts ...Option) (T, error) {
	path, err := col.document(id)
	return col.send(ctx, "GET", path, err, nil, opts)
}

// Create writes a new document (any JSON object, a T or a map) and returns it as stored, with its _id.
func (col *Collection[T]) Create(ctx context.Context, doc any, opts ...Option) (T, error) {
	path, err := buildPath("/api/v1/data/{collection}", col.name)
	return col.send(ctx, "POST", path, err, doc, opts)
}

// Replace replaces a document's fields with doc's.
func (col *Collection[T]) Replace(ctx context.Context, id string, doc any, opts ...Option) (T, error) {
	path, err := col.document(id)
	return col.send(ctx, "PUT", path, err, doc, opts)
}

// Update changes the fields patch names and keeps the others.
func (col *Collection[T]) Update(ctx context.Context, id string, patch any, opts ...Option) (T, error) {
	path, err := col.document(id)
	return col.send(ctx, "PATCH", path, err, patch, opts)
}

// Delete deletes a document.
func (col *Collection[T]) Delete(ctx context.Context, id string, opts ...Option) error {
	path, err := col.document(id)
	if err != nil {
		return err
	}
	return col.client.call(ctx, &call{method: "DELETE", path: path}, nil, opts)
}

// List walks every document of every page, in the order of params.Sort.
func (col *Collection[T]) List(ctx context.Context, params *DataListParams, opts ...Option) iter.Seq2[T, error] {
	path, err := buildPath("/api/v1/data/{collection}", col.name)
	return items[T](ctx, col.client, &call{method: "GET", path: path, query: params.query()}, err, opts)
}
