package dataplatform

import (
	"context"
	"iter"
	"maps"
	"strconv"
)

// Page is one page of a list. Range over a list method (c.Data.List) to walk every item of every page; use its
// …Page method (c.Data.ListPage) and Next to go page by page.
type Page[T any] struct {
	// Data are the items of this page.
	Data []T
	// Total is the number of items across all pages.
	Total int
	// Limit is the page size used for this page.
	Limit int
	// Skip is the number of items before this page.
	Skip int

	client *Client
	call   call
	opts   []Option
}

// HasNext reports whether items follow this page. An empty page ends the walk, even if Total says otherwise.
func (p *Page[T]) HasNext() bool {
	return len(p.Data) > 0 && p.Skip+len(p.Data) < p.Total
}

// Next fetches the page after this one, with the same query and options; nil when there is none.
func (p *Page[T]) Next(ctx context.Context) (*Page[T], error) {
	if !p.HasNext() {
		return nil, nil
	}
	return fetchPage[T](ctx, p.client, p.call, p.Skip+len(p.Data), p.opts)
}

// firstPage fetches the page at the query's skip (0 unless given).
func firstPage[T any](ctx context.Context, c *Client, cl *call, opts []Option) (*Page[T], error) {
	skip, _ := strconv.Atoi(cl.query.Get("skip"))
	return fetchPage[T](ctx, c, *cl, skip, opts)
}

func fetchPage[T any](ctx context.Context, c *Client, cl call, skip int, opts []Option) (*Page[T], error) {
	cl.query = maps.Clone(cl.query)
	if cl.query == nil {
		cl.query = map[string][]string{}
	}
	cl.query.Set("skip", strconv.Itoa(skip))
	var body struct {
		Data  []T  `json:"data"`
		Total *int `json:"total"`
		Limit *int `json:"limit"`
		Skip  *int `json:"skip"`
	}
	if err := c.call(ctx, &cl, &body, opts); err != nil {
		return nil, err
	}
	page := &Page[T]{Data: body.Data, Total: len(body.Data), Skip: skip, Limit: len(body.Data), client: c, call: cl, opts: opts}
	// Some lists (a key's usage) answer `{data, total}` only: the page then takes its place from the query.
	if limit, err := strconv.Atoi(cl.query.Get("limit")); err == nil {
		page.Limit = limit
	}
	if body.Total != nil {
		page.Total = *body.Total
	}
	if body.Limit != nil {
		page.Limit = *body.Limit
	}
	if body.Skip != nil {
		page.Skip = *body.Skip
	}
	return page, nil
}

// items walks every item of every page, fetching each page as the loop reaches it; a failure is the last pair.
func items[T any](ctx context.Context, c *Client, cl *call, err error, opts []Option) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		if err != nil {
			yield(zero, err)
			return
		}
		page, err := firstPage[T](ctx, c, cl, opts)
		for {
			if err != nil {
				yield(zero, err)
				return
			}
			for _, item := range page.Data {
				if !yield(item, nil) {
					return
				}
			}
			if !page.HasNext() {
				return
			}
			page, err = page.Next(ctx)
		}
	}
}
