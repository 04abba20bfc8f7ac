package conformance

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
)

// The matchers of spec/conformance/README.md ("Variables", "Matchers"), with JavaScript's JSON semantics.

var (
	wholeReference = regexp.MustCompile(`^\{\{\s*([$\w.-]+)\s*\}\}$`)
	partReference  = regexp.MustCompile(`\{\{\s*([$\w.-]+)\s*\}\}`)
)

// pathValue follows a dotted path through objects and arrays (items by index); missing when it leads nowhere.
func pathValue(root any, path string) any {
	value := root
	for _, part := range strings.Split(path, ".") {
		switch v := value.(type) {
		case *object:
			found, ok := v.get(part)
			if !ok {
				return missing
			}
			value = found
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(v) {
				return missing
			}
			value = v[i]
		default:
			return missing
		}
	}
	return value
}

type unknownVariable struct{ path string }

func (e *unknownVariable) Error() string { return fmt.Sprintf("unknown variable {{%s}}", e.path) }

func lookup(variables *object, path string) (any, error) {
	value := pathValue(variables, path)
	if value == missing {
		return nil, &unknownVariable{path}
	}
	return value, nil
}

// interpolate replaces {{references}}: a string that is one reference alone is the value itself.
func interpolate(value any, variables *object) (any, error) {
	switch v := value.(type) {
	case string:
		if whole := wholeReference.FindStringSubmatch(v); whole != nil {
			return lookup(variables, whole[1])
		}
		var failure error
		text := partReference.ReplaceAllStringFunc(v, func(match string) string {
			found, err := lookup(variables, partReference.FindStringSubmatch(match)[1])
			if err != nil {
				failure = err
				return ""
			}
			if s, ok := found.(string); ok {
				return s
			}
			return jsonText(found)
		})
		return text, failure
	case []any:
		out := make([]any, len(v))
		for i, item := range v {
			var err error
			if out[i], err = interpolate(item, variables); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *object:
		out := newObject()
		for _, key := range v.keys {
			item, err := interpolate(v.values[key], variables)
			if err != nil {
				return nil, err
			}
			out.set(key, item)
		}
		return out, nil
	}
	return value, nil
}

func typeOf(value any) string {
	switch value.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case *object:
		return "object"
	}
	return "undefined"
}

// equal is JSON equality: true is not 1, and 1 equals 1.0.
func equal(a, b any) bool {
	if typeOf(a) != typeOf(b) {
		return false
	}
	switch x := a.(type) {
	case []any:
		y := b.([]any)
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case *object:
		y := b.(*object)
		if len(x.keys) != len(y.keys) {
			return false
		}
		for _, key := range x.keys {
			other, ok := y.get(key)
			if !ok || !equal(x.values[key], other) {
				return false
			}
		}
		return true
	}
	return a == b
}

func show(value any) string {
	text := "nothing"
	if value != missing {
		text = jsonText(value)
	}
	if len(text) > 300 {
		return text[:300] + "…"
	}
	return text
}

func isOperator(o *object) bool {
	if len(o.keys) == 0 {
		return false
	}
	for _, key := range o.keys {
		if !strings.HasPrefix(key, "$") {
			return false
		}
	}
	return true
}

// mismatches lists every way actual differs from matcher, each naming where; empty when it matches.
func mismatches(actual, matcher any, variables *object, at string) []string {
	switch m := matcher.(type) {
	case string:
		expected, err := interpolate(m, variables)
		if err != nil {
			return []string{fmt.Sprintf("%s: %v", at, err)}
		}
		if equal(actual, expected) {
			return nil
		}
		return []string{fmt.Sprintf("%s: expected %s, got %s", at, show(expected), show(actual))}
	case []any:
		list, ok := actual.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: expected an array, got %s", at, show(actual))}
		}
		if len(list) != len(m) {
			return []string{fmt.Sprintf("%s: expected %d items, got %d", at, len(m), len(list))}
		}
		var out []string
		for i, item := range m {
			out = append(out, mismatches(list[i], item, variables, fmt.Sprintf("%s.%d", at, i))...)
		}
		return out
	case *object:
		if isOperator(m) {
			return operatorMismatches(actual, m, variables, at)
		}
		obj, ok := actual.(*object)
		if !ok {
			return []string{fmt.Sprintf("%s: expected an object, got %s", at, show(actual))}
		}
		var out []string
		for _, key := range m.keys {
			sub := m.values[key]
			value, ok := obj.get(key)
			if !ok {
				if op, isObj := sub.(*object); !isObj || !equal(pathValue(op, "$absent"), true) {
					out = append(out, fmt.Sprintf("%s.%s: missing, expected %s", at, key, show(sub)))
				}
				continue
			}
			out = append(out, mismatches(value, sub, variables, at+"."+key)...)
		}
		return out
	}
	if equal(actual, matcher) {
		return nil
	}
	return []string{fmt.Sprintf("%s: expected %s, got %s", at, show(matcher), show(actual))}
}

func operatorMismatches(actual any, operator *object, variables *object, at string) []string {
	var out []string
	for _, name := range operator.keys {
		argument := operator.values[name]
		switch name {
		case "$any":
			if actual == missing {
				out = append(out, at+": missing")
			}
		case "$absent":
			if actual != missing {
				out = append(out, fmt.Sprintf("%s: expected nothing, got %s", at, show(actual)))
			}
		case "$type":
			kind := typeOf(actual)
			if n, ok := actual.(float64); ok && argument == "integer" && n == math.Trunc(n) && !math.IsInf(n, 0) {
				kind = "integer"
			}
			if kind != argument {
				out = append(out, fmt.Sprintf("%s: expected a value of type %v, got %s", at, argument, show(actual)))
			}
		case "$regex":
			pattern, _ := argument.(string)
			re, err := regexp.Compile(pattern)
			text, isText := actual.(string)
			if err != nil || !isText || !re.MatchString(text) {
				out = append(out, fmt.Sprintf("%s: expected a string matching /%s/, got %s", at, pattern, show(actual)))
			}
		case "$length":
			// JavaScript counts UTF-16 code units; so does the format.
			length := -1
			switch v := actual.(type) {
			case string:
				length = len(utf16.Encode([]rune(v)))
			case []any:
				length = len(v)
			}
			if float64(length) != argument {
				out = append(out, fmt.Sprintf("%s: expected length %v, got %s", at, argument, show(actual)))
			}
		case "$contains":
			list, ok := actual.([]any)
			found := false
			for _, item := range list {
				if len(mismatches(item, argument, variables, at)) == 0 {
					found = true
					break
				}
			}
			if !ok || !found {
				out = append(out, fmt.Sprintf("%s: expected an array with an item like %s, got %s", at, show(argument), show(actual)))
			}
		default:
			out = append(out, fmt.Sprintf("%s: unknown matcher %s", at, name))
		}
	}
	return out
}
