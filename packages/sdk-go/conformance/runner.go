// Package conformance runs the cases of spec/conformance through the Go client against a reference server: each
// case's requests go through Client.Do (no retries, no credentials of the client's own), so the client's request
// building, errors and request ids are what is checked. The format is spec/conformance/README.md.
package conformance

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"

	dataplatform "github.com/dataplatform/dataplatform-go"
)

const setupPassword = "correct horse battery staple"

// Case is one case file: its id (its path under spec/conformance without .json) and its content.
type Case struct {
	ID   string
	Body *object
}

// LoadCases reads every case under dir.
func LoadCases(dir string) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var cases []Case
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		value, err := parseJSON(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		rel, _ := filepath.Rel(dir, file)
		cases = append(cases, Case{ID: strings.TrimSuffix(filepath.ToSlash(rel), ".json"), Body: value.(*object)})
	}
	return cases, nil
}

// SkipReason is why the case does not apply to the server; empty when it does.
func (c Case) SkipReason() string {
	reason, _ := pathValue(c.Body, "skip.server").(string)
	return reason
}

type answer struct {
	status int
	header http.Header
	body   any
}

type step struct {
	label string
	body  *object
}

func str(value any) string {
	if s, ok := value.(string); ok {
		return s
	}
	return jsonText(value)
}

// Run runs one case against the server at baseURL; the error names the step and every mismatch.
func Run(ctx context.Context, c Case, baseURL string) error {
	unique := make([]byte, 8)
	_, _ = rand.Read(unique)
	variables := newObject()
	variables.set("$unique", hex.EncodeToString(unique))
	kinds := map[string]string{}
	var steps []step
	fixtures, _ := pathValue(c.Body, "setup").([]any)
	for _, each := range fixtures {
		fixture := each.(*object)
		if name, ok := fixture.get("account"); ok {
			account := name.(string)
			email := fmt.Sprintf("%s-%s@example.com", account, str(pathValue(variables, "$unique")))
			request := obj("method", "POST", "path", "/api/auth/signup", "json", obj("email", email, "password", setupPassword, "name", account))
			steps = append(steps, step{"setup: account " + account, obj("request", request, "expect", obj("status", 201.0), "capture", obj(account, "body"))})
			kinds[account] = "account"
			variables.set("$"+account, obj("email", email, "password", setupPassword))
			continue
		}
		key := str(pathValue(fixture, "key"))
		request := obj("method", "POST", "path", "/api/keys", "auth", pathValue(fixture, "owner"), "json", obj("name", key, "scopes", pathValue(fixture, "scopes")))
		steps = append(steps, step{"setup: key " + key, obj("request", request, "expect", obj("status", 201.0), "capture", obj(key, "body"))})
		kinds[key] = "key"
	}
	caseSteps, _ := pathValue(c.Body, "steps").([]any)
	for i, each := range caseSteps {
		label := fmt.Sprintf("step %d", i+1)
		if title, ok := pathValue(each, "title").(string); ok {
			label += " (" + title + ")"
		}
		steps = append(steps, step{label, each.(*object)})
	}

	// No credentials and no retries of the client's own: a case says exactly what each request carries.
	client, err := dataplatform.NewClient(dataplatform.WithBaseURL(baseURL), dataplatform.WithAPIKey(""),
		dataplatform.WithToken(""), dataplatform.WithMaxRetries(0))
	if err != nil {
		return err
	}
	title := str(pathValue(c.Body, "title"))
	for _, s := range steps {
		got, err := send(ctx, client, s.body, variables, kinds)
		if err != nil {
			return fmt.Errorf("%s\n%s: %w", title, s.label, err)
		}
		if captures, ok := pathValue(s.body, "capture").(*object); ok {
			for _, name := range captures.keys {
				value, err := captured(got, str(captures.values[name]))
				if err != nil {
					return fmt.Errorf("%s\n%s: %w", title, s.label, err)
				}
				if extra, ok := pathValue(variables, "$"+name).(*object); ok {
					if merged, isObj := value.(*object); isObj {
						copied := newObject()
						for _, key := range merged.keys {
							copied.set(key, merged.values[key])
						}
						for _, key := range extra.keys {
							copied.set(key, extra.values[key])
						}
						value = copied
					}
				}
				variables.set(name, value)
			}
		}
		if problems := check(s.body, got, variables); len(problems) > 0 {
			request := fmt.Sprintf("%s %s", str(pathValue(s.body, "request.method")), str(pathValue(s.body, "request.path")))
			return fmt.Errorf("%s\n%s: %s\n  %s\n  answer: %d %.600s", title, s.label, request,
				strings.Join(problems, "\n  "), got.status, show(got.body))
		}
	}
	return nil
}

// obj makes an object of key, value pairs in order.
func obj(pairs ...any) *object {
	o := newObject()
	for i := 0; i < len(pairs); i += 2 {
		o.set(pairs[i].(string), pairs[i+1])
	}
	return o
}

func headerValue(header http.Header, name string) any {
	values := header.Values(name)
	if len(values) == 0 {
		return missing
	}
	return strings.Join(values, ", ")
}

func check(s *object, got *answer, variables *object) []string {
	expect := pathValue(s, "expect").(*object)
	var problems []string
	status, _ := expect.get("status")
	if float64(got.status) != status {
		problems = append(problems, fmt.Sprintf("status: expected %v, got %d", status, got.status))
	}
	code, hasCode := expect.get("code")
	if got.status >= 400 {
		if !hasCode {
			code = obj("$type", "string")
		}
		requestID := headerValue(got.header, "X-Request-Id")
		if requestID == missing {
			requestID = obj("$any", true)
		}
		shape := obj("error", obj("$type", "string"), "code", code, "requestId", requestID)
		problems = append(problems, mismatches(got.body, shape, variables, "body")...)
	} else if hasCode {
		problems = append(problems, fmt.Sprintf("code: expected %v, but the answer is a success", code))
	}
	if headers, ok := expect.get("headers"); ok {
		h := headers.(*object)
		for _, name := range h.keys {
			problems = append(problems, mismatches(headerValue(got.header, name), h.values[name], variables, "headers."+strings.ToLower(name))...)
		}
	}
	if body, ok := expect.get("body"); ok {
		problems = append(problems, mismatches(got.body, body, variables, "body")...)
	}
	return problems
}

func captured(got *answer, source string) (any, error) {
	switch {
	case source == "status":
		return float64(got.status), nil
	case source == "body":
		return got.body, nil
	case strings.HasPrefix(source, "body."):
		return pathValue(got.body, strings.TrimPrefix(source, "body.")), nil
	case strings.HasPrefix(source, "headers."):
		return headerValue(got.header, strings.TrimPrefix(source, "headers.")), nil
	}
	return nil, fmt.Errorf("cannot capture %s: use body, body.<path>, headers.<name> or status", source)
}
