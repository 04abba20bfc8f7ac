package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// object is a JSON object that keeps its keys' order, as JavaScript does: a body sent or written into a string
// reads as the case wrote it.
type object struct {
	keys   []string
	values map[string]any
}

func (o *object) get(key string) (any, bool) {
	value, ok := o.values[key]
	return value, ok
}

func (o *object) set(key string, value any) {
	if _, ok := o.values[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.values[key] = value
}

func newObject() *object { return &object{values: map[string]any{}} }

// missing stands for a field or header that is not there (JSON has no undefined; the format does).
type missingValue struct{}

var missing = missingValue{}

// parseJSON reads JSON with objects as *object and numbers as float64.
func parseJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	value, err := readValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the JSON value")
	}
	return value, nil
}

func readValue(dec *json.Decoder) (any, error) {
	token, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := token.(type) {
	case json.Delim:
		if t == '[' {
			list := []any{}
			for dec.More() {
				item, err := readValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, item)
			}
			_, err := dec.Token()
			return list, err
		}
		obj := newObject()
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			value, err := readValue(dec)
			if err != nil {
				return nil, err
			}
			obj.set(key.(string), value)
		}
		_, err := dec.Token()
		return obj, err
	default:
		return t, nil
	}
}

// jsonText writes JSON as JavaScript does: keys in order, no spaces, no escaping of <, > and &.
func jsonText(value any) string {
	var b bytes.Buffer
	writeJSON(&b, value)
	return b.String()
}

func writeJSON(b *bytes.Buffer, value any) {
	switch v := value.(type) {
	case *object:
		b.WriteByte('{')
		for i, key := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeScalar(b, key)
			b.WriteByte(':')
			writeJSON(b, v.values[key])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, item := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, item)
		}
		b.WriteByte(']')
	default:
		writeScalar(b, v)
	}
}

func writeScalar(b *bytes.Buffer, value any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(value)
	b.Truncate(b.Len() - 1) // Encode ends with a newline
}
