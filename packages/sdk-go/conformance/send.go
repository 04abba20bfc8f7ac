package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	dataplatform "github.com/dataplatform/dataplatform-go"
)

// send sends a step's request through the client and reads its answer; an error answer is read from the *Error.
func send(ctx context.Context, client *dataplatform.Client, s *object, variables *object, kinds map[string]string) (*answer, error) {
	request := pathValue(s, "request").(*object)
	var opts []dataplatform.Option
	named := map[string]bool{}
	header := func(name, value string) {
		named[http.CanonicalHeaderKey(name)] = true
		opts = append(opts, dataplatform.WithHeader(name, value))
	}
	if auth, ok := request.get("auth"); ok {
		name := str(auth)
		switch kinds[name] {
		case "account":
			token, err := lookup(variables, name+".token")
			if err != nil {
				return nil, err
			}
			header("Authorization", "Bearer "+str(token))
		case "key":
			secret, err := lookup(variables, name+".secret")
			if err != nil {
				return nil, err
			}
			header("X-API-Key", str(secret))
		default:
			return nil, fmt.Errorf("auth names %s, which the setup does not make", name)
		}
	}
	var content []byte
	if body, ok := request.get("json"); ok {
		value, err := interpolate(body, variables)
		if err != nil {
			return nil, err
		}
		content = []byte(jsonText(value))
		header("Content-Type", "application/json")
	} else if body, ok := request.get("body"); ok {
		value, err := interpolate(body, variables)
		if err != nil {
			return nil, err
		}
		repeat := 1
		if n, ok := pathValue(request, "repeatBody").(float64); ok {
			repeat = int(n)
		}
		content = []byte(strings.Repeat(str(value), repeat))
	}
	if headers, ok := pathValue(request, "headers").(*object); ok {
		for _, name := range headers.keys {
			value, err := interpolate(headers.values[name], variables)
			if err != nil {
				return nil, err
			}
			header(name, str(value))
		}
	}
	// A step sends only the headers it names: the client's own Accept, Idempotency-Key and User-Agent are taken
	// out unless the step names them (the client keeps its X-Request-Id, which every answer must echo).
	for _, own := range []string{"Accept", "Idempotency-Key", "User-Agent"} {
		if !named[own] {
			opts = append(opts, dataplatform.WithoutHeader(own))
		}
	}
	path, err := interpolate(str(pathValue(request, "path")), variables)
	if err != nil {
		return nil, err
	}
	method := str(pathValue(request, "method"))
	if stream, _ := pathValue(request, "stream").(bool); stream {
		return openStream(ctx, client, method, str(path), opts)
	}
	var body any
	if content != nil {
		body = content
	}
	resp, err := client.Do(ctx, method, str(path), body, opts...)
	if err != nil {
		var apiErr *dataplatform.Error
		if !errors.As(err, &apiErr) || apiErr.Status == 0 {
			return nil, err
		}
		if err := checkError(apiErr); err != nil {
			return nil, err
		}
		return read(apiErr.Status, apiErr.Header, apiErr.Body)
	}
	return read(resp.Status, resp.Header, resp.Body)
}

// openStream reads an endless event stream's status and headers, then closes it.
func openStream(ctx context.Context, client *dataplatform.Client, method, path string, opts []dataplatform.Option) (*answer, error) {
	resp, err := client.Open(ctx, method, path, opts...)
	if err != nil {
		var apiErr *dataplatform.Error
		if !errors.As(err, &apiErr) || apiErr.Status == 0 {
			return nil, err
		}
		return read(apiErr.Status, apiErr.Header, apiErr.Body)
	}
	resp.Body.Close()
	return &answer{status: resp.StatusCode, header: resp.Header, body: missing}, nil
}

func read(status int, header http.Header, data []byte) (*answer, error) {
	got := &answer{status: status, header: header, body: missing}
	if len(data) > 0 {
		got.body = string(data)
		if strings.Contains(header.Get("Content-Type"), "json") {
			value, err := parseJSON(data)
			if err != nil {
				return nil, fmt.Errorf("the %d answer is not JSON: %.200s", status, data)
			}
			got.body = value
		}
	}
	return got, nil
}

// checkError: the client's error for an answer has the kind of its status, and the code and id of its body.
func checkError(e *dataplatform.Error) error {
	if !errors.Is(e, dataplatform.KindOf(e.Status)) {
		return fmt.Errorf("%d is not errors.Is %v", e.Status, dataplatform.KindOf(e.Status))
	}
	value, err := parseJSON(bytes.TrimSpace(e.Body))
	if err != nil {
		return nil // not JSON: the error shape check reports it
	}
	code, _ := pathValue(value, "code").(string)
	requestID, _ := pathValue(value, "requestId").(string)
	if e.Code != code || (requestID != "" && e.RequestID != requestID) {
		return fmt.Errorf("the error's code or request id differs from its body: %+v", e)
	}
	return nil
}
