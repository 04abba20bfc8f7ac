package dataplatform

import (
	"fmt"
	"net/url"
	"strings"
)

// buildPath writes each value into the next `{name}` of the template, percent-encoded; an empty value would
// silently name another route, so it is an error.
func buildPath(template string, values ...string) (string, error) {
	var b strings.Builder
	b.Grow(len(template) + 32)
	rest := template
	for _, value := range values {
		open := strings.IndexByte(rest, '{')
		end := strings.IndexByte(rest, '}')
		if open < 0 || end < open {
			return "", fmt.Errorf("dataplatform: %s takes fewer parameters", template)
		}
		if value == "" {
			return "", fmt.Errorf("dataplatform: invalid %s %q: expected a non-empty string", rest[open+1:end], value)
		}
		b.WriteString(rest[:open])
		escapeSegment(&b, value)
		rest = rest[end+1:]
	}
	b.WriteString(rest)
	return b.String(), nil
}

// escapeSegment writes a path segment with every byte but the unreserved ones percent-encoded.
func escapeSegment(b *strings.Builder, value string) {
	const hexDigits = "0123456789ABCDEF"
	for i := 0; i < len(value); i++ {
		ch := value[i]
		if 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || '0' <= ch && ch <= '9' || ch == '-' || ch == '.' || ch == '_' || ch == '~' {
			b.WriteByte(ch)
		} else {
			b.WriteByte('%')
			b.WriteByte(hexDigits[ch>>4])
			b.WriteByte(hexDigits[ch&15])
		}
	}
}

// setQuery adds an optional query parameter; nil leaves it out.
func setQuery[T string | int64 | float64 | bool](q url.Values, name string, value *T) {
	if value != nil {
		setQueryValue(q, name, *value)
	}
}

// setQueryValue adds a query parameter as the server reads it (a bool as true/false).
func setQueryValue[T string | int64 | float64 | bool](q url.Values, name string, value T) {
	q.Set(name, fmt.Sprint(value))
}
