// Package webhooks verifies webhook deliveries of the dataplatform API: Verify for a body and its headers,
// Middleware for a net/http receiver.
//
// It follows spec/webhooks/README.md in its order (presence, format, age, then each signature scheme present),
// so it gives every vector of spec/webhooks/vectors.json its expected result.
package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DefaultTolerance is how far a delivery's timestamps may be from now in either direction.
const DefaultTolerance = 300 * time.Second

// The codes of a VerificationError.
const (
	CodeMissingHeader     = "missing_header"
	CodeMalformedHeader   = "malformed_header"
	CodeInvalidSignature  = "invalid_signature"
	CodeTimestampTooOld   = "timestamp_too_old"
	CodeTimestampInFuture = "timestamp_in_future"
	CodeInvalidSecret     = "invalid_secret"
)

// VerificationError is a delivery that failed verification; Code names the check, Header the header it read.
type VerificationError struct {
	Code    string
	Header  string
	Message string
}

func (e *VerificationError) Error() string { return "webhook verification: " + e.Message }

type config struct {
	tolerance time.Duration
	now       func() time.Time
}

// Option changes how Verify checks.
type Option func(*config)

// WithTolerance sets how far a timestamp may be from now (DefaultTolerance otherwise).
func WithTolerance(d time.Duration) Option { return func(c *config) { c.tolerance = d } }

// WithNow replaces the clock, for tests.
func WithNow(now func() time.Time) Option { return func(c *config) { c.now = now } }

var (
	hexSignature    = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)
	base64Signature = regexp.MustCompile(`^[A-Za-z0-9+/]{43}=$`)
	unixSeconds     = regexp.MustCompile(`^[0-9]{1,12}$`)
)

func failure(code, header, format string, args ...any) *VerificationError {
	return &VerificationError{Code: code, Header: header, Message: fmt.Sprintf(format, args...)}
}

// Verify returns nil when every signature scheme present in header checks out, else a *VerificationError.
// body is the raw body exactly as received, never a re-encoded object; secrets are the subscription's secret
// (whsec_...), or several while one rotates.
func Verify(body []byte, header http.Header, secrets []string, opts ...Option) error {
	cfg := config{tolerance: DefaultTolerance, now: time.Now}
	for _, opt := range opts {
		opt(&cfg)
	}
	hexHeader, hasHex := list(header, "X-Webhook-Signature", ",")
	standardHeader, hasStandard := list(header, "Webhook-Signature", " ")
	if !hasHex && !hasStandard {
		return failure(CodeMissingHeader, "x-webhook-signature", "neither X-Webhook-Signature nor webhook-signature is present")
	}
	var messageID, stamp string
	var standardSeconds int64
	var standardSignatures []string
	if hasStandard {
		var ok1, ok2 bool
		var err error
		if messageID, ok1, err = single(header, "Webhook-Id"); err != nil {
			return err
		}
		if stamp, ok2, err = single(header, "Webhook-Timestamp"); err != nil {
			return err
		}
		if !ok1 || !ok2 {
			missing := "webhook-id"
			if ok1 {
				missing = "webhook-timestamp"
			}
			return failure(CodeMissingHeader, missing, "webhook-signature is present but %s is not", missing)
		}
		if standardSeconds, err = seconds(stamp, "webhook-timestamp"); err != nil {
			return err
		}
		if standardSignatures, err = standardEntries(standardHeader); err != nil {
			return err
		}
	}
	plainStamp, hasPlainStamp, err := single(header, "X-Webhook-Timestamp")
	if err != nil {
		return err
	}
	var plainSeconds int64
	if hasPlainStamp {
		if plainSeconds, err = seconds(plainStamp, "x-webhook-timestamp"); err != nil {
			return err
		}
	}
	var hexSignatures []string
	if hasHex {
		if hexSignatures, err = hexEntries(hexHeader); err != nil {
			return err
		}
	}

	now := cfg.now().Unix()
	if hasStandard {
		if err := checkAge(standardSeconds, now, cfg.tolerance, "webhook-timestamp"); err != nil {
			return err
		}
	}
	if hasPlainStamp {
		if err := checkAge(plainSeconds, now, cfg.tolerance, "x-webhook-timestamp"); err != nil {
			return err
		}
	}

	if hasHex {
		expected := make([]string, len(secrets))
		for i, secret := range secrets {
			mac := hmac.New(sha256.New, []byte(secret))
			mac.Write(body)
			expected[i] = hex.EncodeToString(mac.Sum(nil))
		}
		given := make([]string, len(hexSignatures))
		for i, s := range hexSignatures {
			given[i] = strings.ToLower(s)
		}
		if !anyEqual(expected, given) {
			return failure(CodeInvalidSignature, "x-webhook-signature", "no X-Webhook-Signature matches")
		}
	}
	if hasStandard {
		var expected []string
		for _, secret := range secrets {
			key := standardKey(secret)
			if key == nil {
				continue
			}
			mac := hmac.New(sha256.New, key)
			mac.Write([]byte(messageID + "." + stamp + "."))
			mac.Write(body)
			expected = append(expected, base64.StdEncoding.EncodeToString(mac.Sum(nil)))
		}
		if len(expected) == 0 {
			return failure(CodeInvalidSecret, "webhook-signature", "no secret is a Standard Webhooks key (base64 after whsec_)")
		}
		if !anyEqual(expected, standardSignatures) {
			return failure(CodeInvalidSignature, "webhook-signature", "no webhook-signature v1 entry matches")
		}
	}
	return nil
}

// list is a header that may carry several entries: repeated lines are joined with the separator.
func list(header http.Header, name, separator string) (string, bool) {
	values := header.Values(name)
	if len(values) == 0 {
		return "", false
	}
	text := strings.Join(values, separator)
	return text, strings.TrimSpace(text) != ""
}

// single is a header that carries one value; repeated lines must agree.
func single(header http.Header, name string) (string, bool, error) {
	value := ""
	for _, each := range header.Values(name) {
		each = strings.TrimSpace(each)
		if each == "" {
			continue
		}
		if value != "" && value != each {
			return "", false, failure(CodeMalformedHeader, strings.ToLower(name), "%s was sent more than once with different values", strings.ToLower(name))
		}
		value = each
	}
	return value, value != "", nil
}

func seconds(value, name string) (int64, error) {
	if !unixSeconds.MatchString(value) {
		return 0, failure(CodeMalformedHeader, name, "%s must be Unix time in whole seconds", name)
	}
	return strconv.ParseInt(value, 10, 64)
}

func hexEntries(value string) ([]string, error) {
	var out []string
	for _, each := range strings.Split(value, ",") {
		if each = strings.TrimSpace(each); each != "" {
			out = append(out, each)
		}
	}
	for _, each := range out {
		if !hexSignature.MatchString(each) {
			out = nil
			break
		}
	}
	if len(out) == 0 {
		return nil, failure(CodeMalformedHeader, "x-webhook-signature", "X-Webhook-Signature must be 64 hex digits (HMAC-SHA256), or several separated by commas")
	}
	return out, nil
}

func standardEntries(value string) ([]string, error) {
	var out []string
	for _, spaced := range strings.Split(value, " ") {
		entry := spaced
		// HTTP libraries join a repeated header with ", ", which leaves a comma after all but the last entry.
		if strings.HasSuffix(spaced, ",") && strings.Index(spaced, ",") < len(spaced)-1 {
			entry = spaced[:len(spaced)-1]
		}
		if entry == "" {
			continue
		}
		version, signature, comma := strings.Cut(entry, ",")
		if !comma || version == "" || (version == "v1" && !base64Signature.MatchString(signature)) {
			return nil, failure(CodeMalformedHeader, "webhook-signature", "webhook-signature must be space-separated entries of the form v1,<base64 of 32 bytes>")
		}
		if version == "v1" {
			out = append(out, signature)
		}
	}
	return out, nil
}

func checkAge(timestamp, now int64, tolerance time.Duration, name string) error {
	age := now - timestamp
	limit := int64(tolerance / time.Second)
	if age > limit {
		return failure(CodeTimestampTooOld, name, "%s is %d s old, more than %d s", name, age, limit)
	}
	if -age > limit {
		return failure(CodeTimestampInFuture, name, "%s is %d s ahead of this clock, more than %d s", name, -age, limit)
	}
	return nil
}

func standardKey(secret string) []byte {
	key, err := base64.StdEncoding.Strict().DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return nil
	}
	return key
}

// anyEqual compares every pair, each in constant time, so the time says nothing about which matched.
func anyEqual(expected, given []string) bool {
	found := false
	for _, a := range expected {
		for _, b := range given {
			found = subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 || found
		}
	}
	return found
}
