package dataplatform

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// Error is every error a call returns: an error answer (Status 400 and up) or no answer at all (Status 0). Read
// it with errors.As; errors.Is tells the kind: errors.Is(err, dataplatform.ErrNotFound).
type Error struct {
	// Status is the HTTP status; 0 when no answer arrived.
	Status int
	// Code is the machine-readable code of the error body, such as "not_found" (the Code* constants list the
	// documented ones); empty when no answer or no code arrived.
	Code string
	// Message is the body's error text, or what went wrong when no answer arrived.
	Message string
	// RequestID is the request's id: from the body, else the X-Request-Id answer header, else the one the client
	// sent (which the server logs too). Quote it in bug reports.
	RequestID string
	// Details are extra facts from the body, such as the invalid field.
	Details any
	// Header is the answer's header; nil when no answer arrived.
	Header http.Header
	// Body is the answer's raw body.
	Body []byte
	// Err is the cause of a failure without an answer (a refused connection, a timeout, a cancelled context).
	Err error
}

func (e *Error) Error() string {
	if e.Status == 0 {
		return e.Message
	}
	text := fmt.Sprintf("%d", e.Status)
	if e.Code != "" {
		text += " " + e.Code
	}
	if e.Message != "" {
		text += ": " + e.Message
	}
	return text
}

// Unwrap returns the cause of a failure without an answer.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether the error is of a kind: ErrNotFound for a 404, ErrServer for any 5xx, ErrConnection for no
// answer, and so on.
func (e *Error) Is(target error) bool {
	k, ok := target.(*kind)
	if !ok {
		return false
	}
	switch {
	case k == ErrConnection:
		return e.Status == 0
	case k == ErrTimeout:
		return e.Status == 0 && isTimeout(e.Err)
	case k == ErrServer:
		return e.Status >= 500
	case k == ErrStatus:
		return e.Status >= 400
	default:
		return e.Status == k.status
	}
}

// kind is the target of errors.Is for one kind of Error.
type kind struct {
	name   string
	status int
}

func (k *kind) Error() string { return k.name }

// The kinds of Error, for errors.Is.
var (
	ErrStatus               = &kind{name: "error answer"}
	ErrBadRequest           = &kind{"bad request", 400}
	ErrUnauthorized         = &kind{"unauthorized", 401}
	ErrPaymentRequired      = &kind{"payment required", 402}
	ErrForbidden            = &kind{"forbidden", 403}
	ErrNotFound             = &kind{"not found", 404}
	ErrMethodNotAllowed     = &kind{"method not allowed", 405}
	ErrRequestTimeout       = &kind{"request timeout", 408}
	ErrConflict             = &kind{"conflict", 409}
	ErrPreconditionFailed   = &kind{"precondition failed", 412}
	ErrPayloadTooLarge      = &kind{"payload too large", 413}
	ErrURITooLong           = &kind{"URI too long", 414}
	ErrUnsupportedMediaType = &kind{"unsupported media type", 415}
	ErrUnprocessable        = &kind{"unprocessable entity", 422}
	ErrPreconditionRequired = &kind{"precondition required", 428}
	ErrRateLimited          = &kind{"rate limited", 429}
	ErrHeadersTooLarge      = &kind{"headers too large", 431}
	ErrServer               = &kind{name: "server error"}
	ErrConnection           = &kind{name: "no answer"}
	ErrTimeout              = &kind{name: "timed out"}
)

// KindOf is the kind errors.Is matches for an answer's status: ErrServer for a 5xx, ErrStatus for a status of
// 400 and up without a kind of its own, nil below 400.
func KindOf(status int) error {
	for _, k := range []*kind{ErrBadRequest, ErrUnauthorized, ErrPaymentRequired, ErrForbidden, ErrNotFound,
		ErrMethodNotAllowed, ErrRequestTimeout, ErrConflict, ErrPreconditionFailed, ErrPayloadTooLarge,
		ErrURITooLong, ErrUnsupportedMediaType, ErrUnprocessable, ErrPreconditionRequired, ErrRateLimited,
		ErrHeadersTooLarge} {
		if k.status == status {
			return k
		}
	}
	switch {
	case status >= 500:
		return ErrServer
	case status >= 400:
		return ErrStatus
	}
	return nil
}

// statusError is the Error of an error answer: `{ error, code, details?, requestId }`, or a body that is not
// JSON (a proxy's HTML page, say).
func statusError(status int, header http.Header, body []byte, sentRequestID string) *Error {
	e := &Error{Status: status, Header: header, Body: body}
	var fields struct {
		Error     any `json:"error"`
		Code      any `json:"code"`
		Details   any `json:"details"`
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(body, &fields) == nil {
		e.Code, _ = fields.Code.(string)
		e.Message, _ = fields.Error.(string)
		e.RequestID, _ = fields.RequestID.(string)
		e.Details = fields.Details
	} else if len(body) > 0 {
		e.Message = string(body[:min(len(body), 200)])
	}
	if e.RequestID == "" {
		e.RequestID = header.Get("X-Request-Id")
	}
	if e.RequestID == "" {
		e.RequestID = sentRequestID
	}
	return e
}

func isTimeout(err error) bool {
	var timeout interface{ Timeout() bool }
	return errors.As(err, &timeout) && timeout.Timeout()
}
