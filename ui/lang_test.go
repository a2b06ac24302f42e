package ui

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestLangSameKeys checks that both languages say everything, with the
// same formatting verbs.
func TestLangSameKeys(t *testing.T) {
	en, fr := english(), french()
	for k := range en {
		if _, ok := fr[k]; !ok {
			t.Errorf("%q is in English, not in French", k)
		}
	}
	for k := range fr {
		if _, ok := en[k]; !ok {
			t.Errorf("%q is in French, not in English", k)
		}
	}
	verb := regexp.MustCompile(`%(\[\d+\])?[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)
	verbs := func(s string) []string { v := verb.FindAllString(s, -1); slices.Sort(v); return v }
	for k, e := range en {
		if f, ok := fr[k]; ok && !slices.Equal(verbs(e), verbs(f)) {
			t.Errorf("%q: English formats %q, French %q", k, verbs(e), verbs(f))
		}
	}
}

// TestLangKeysUsed reads the package's source: every key the code asks for
// exists, no key is built at run time (a search for a key finds where it
// is used), and every key is used.
func TestLangKeysUsed(t *testing.T) {
	keys := english()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	literals := map[string]bool{} // every string literal of the code, but the texts themselves
	counted := map[string]bool{}  // keys asked for with count, which may have a .one form
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				return n.Name.Name != "english" && n.Name.Name != "french"
			case *ast.BasicLit:
				if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING {
					literals[s] = true
				}
			case *ast.CallExpr:
				method, ok := textCall(n)
				if !ok || len(n.Args) == 0 {
					return true
				}
				switch arg := n.Args[0].(type) {
				case *ast.BasicLit:
					s, _ := strconv.Unquote(arg.Value)
					if _, ok := keys[s]; !ok {
						t.Errorf("%s: t.%s(%q): no such key", fset.Position(n.Pos()), method, s)
					}
					if method == "count" {
						counted[s] = true
					}
				case *ast.Ident, *ast.IndexExpr:
					// A key taken from a table of literal keys.
				case *ast.SelectorExpr:
					if _, entry := arg.X.(*ast.IndexExpr); !entry { // a field of a table's entry
						t.Errorf("%s: t.%s(%s…): a key read from data: write the keys out in a table",
							fset.Position(n.Pos()), method, arg.Sel.Name)
					}
				default:
					t.Errorf("%s: t.%s with a key built at run time: write the keys out in a table",
						fset.Position(n.Pos()), method)
				}
			}
			return true
		})
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		base, one := strings.CutSuffix(k, ".one")
		switch {
		case one && !counted[base]:
			t.Errorf("%q: a singular for a key count never asks for", k)
		case !one && !literals[k]:
			t.Errorf("%q is used nowhere", k)
		}
	}
	if len(literals) == 0 || len(keys) < 100 {
		t.Fatalf("read %d literals and %d keys: the test reads the wrong files", len(literals), len(keys))
	}
}

// textCall reports whether a call asks the text for a key (t.get, m.t.f,
// c.t.count…), and with which method.
func textCall(c *ast.CallExpr) (string, bool) {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	switch sel.Sel.Name {
	case "get", "f", "count":
	default:
		return "", false
	}
	switch x := sel.X.(type) {
	case *ast.Ident:
		return sel.Sel.Name, x.Name == "t"
	case *ast.SelectorExpr:
		return sel.Sel.Name, x.Sel.Name == "t"
	}
	return "", false
}
