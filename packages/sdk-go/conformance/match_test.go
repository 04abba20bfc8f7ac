package conformance

import (
	"strings"
	"testing"
)

func mustJSON(t *testing.T, text string) any {
	t.Helper()
	value, err := parseJSON([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return value
}

func TestTheMatchersTellAMatchFromAMismatch(t *testing.T) {
	variables := mustJSON(t, `{"$unique":"u1","doc":{"_id":"a1","n":2}}`).(*object)
	for _, c := range []struct {
		actual, matcher string
		matches         bool
	}{
		{`{"a":1,"b":2}`, `{"a":1}`, true},
		{`{"a":1}`, `{"a":1.0}`, true},
		{`{"a":true}`, `{"a":1}`, false},
		{`{"a":1}`, `{"b":{"$absent":true}}`, true},
		{`{"a":1}`, `{"a":{"$absent":true}}`, false},
		{`{"a":1}`, `{"b":1}`, false},
		{`[1,2]`, `[1]`, false},
		{`{"id":"a1"}`, `{"id":"{{doc._id}}"}`, true},
		{`{"id":"a2"}`, `{"id":"{{doc._id}}"}`, false},
		{`{"n":3}`, `{"n":{"$type":"integer"}}`, true},
		{`{"n":3.5}`, `{"n":{"$type":"integer"}}`, false},
		{`{"s":"req_123"}`, `{"s":{"$regex":"^req_\\d+$"}}`, true},
		{`{"s":"x_123"}`, `{"s":{"$regex":"^req_"}}`, false},
		{`{"s":"😀"}`, `{"s":{"$length":2}}`, true},
		{`{"s":"ab"}`, `{"s":{"$length":3}}`, false},
		{`{"l":[{"k":1},{"k":2}]}`, `{"l":{"$contains":{"k":2}}}`, true},
		{`{"l":[{"k":1}]}`, `{"l":{"$contains":{"k":2}}}`, false},
		{`{"a":null}`, `{"a":{"$any":true,"$type":"null"}}`, true},
	} {
		problems := mismatches(mustJSON(t, c.actual), mustJSON(t, c.matcher), variables, "body")
		if (len(problems) == 0) != c.matches {
			t.Errorf("%s against %s: matches %v, problems %v", c.actual, c.matcher, c.matches, problems)
		}
	}
}

func TestInterpolationKeepsAWholeReferencesTypeAndWritesJSONInsideText(t *testing.T) {
	variables := mustJSON(t, `{"doc":{"_id":"a1","n":2,"tags":["x"]},"$unique":"u1"}`).(*object)
	whole, err := interpolate("{{doc.n}}", variables)
	if err != nil || whole != float64(2) {
		t.Fatalf("%v %v", whole, err)
	}
	text, err := interpolate("/c_{{$unique}}/{{doc._id}}?t={{doc.tags}}", variables)
	if err != nil || text != `/c_u1/a1?t=["x"]` {
		t.Fatalf("%v %v", text, err)
	}
	if _, err := interpolate("{{nope}}", variables); err == nil || !strings.Contains(err.Error(), "unknown variable") {
		t.Fatalf("an unknown variable: %v", err)
	}
}

func TestJSONIsWrittenAsJavaScriptWritesIt(t *testing.T) {
	value := mustJSON(t, `{"z":1,"a":"<b>","n":1.5,"list":[true,null]}`)
	if got := jsonText(value); got != `{"z":1,"a":"<b>","n":1.5,"list":[true,null]}` {
		t.Fatalf("%s", got)
	}
}
