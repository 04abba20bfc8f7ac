package dataplatform

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
)

// goName is an operationId segment in Go's case: `logoutAll` → `LogoutAll`, `api-keys` → `ApiKeys`.
func goName(segment string) string {
	var b strings.Builder
	upper := true
	for _, r := range segment {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			upper = true
			continue
		}
		if upper {
			r = unicode.ToUpper(r)
			upper = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func TestEveryOperationOfTheContractIsAMethodOfTheClient(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "contract", "openapi.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(WithBaseURL("http://h.test"))
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, item := range doc.Paths {
		for _, op := range item {
			count++
			segments := strings.Split(op.OperationID, ".")
			target := reflect.ValueOf(c)
			for _, segment := range segments[:len(segments)-1] {
				target = target.Elem().FieldByName(goName(segment))
				if !target.IsValid() || target.IsNil() {
					t.Errorf("%s: no resource %s", op.OperationID, goName(segment))
					break
				}
			}
			if target.IsValid() && !target.MethodByName(goName(segments[len(segments)-1])).IsValid() {
				t.Errorf("%s: no method %s", op.OperationID, goName(segments[len(segments)-1]))
			}
		}
	}
	if count < 50 {
		t.Fatalf("only %d operations in openapi.json", count)
	}
}
