package toguz_test

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestArchitectureMap holds docs/architecture.md's table of packages to the
// module: every package of `go list ./...` is named there once, the table
// names none that does not exist, and no package's non-test code imports a
// package of a higher layer than its own (an arrow from a low room to a high
// one).
func TestArchitectureMap(t *testing.T) {
	layers := docLayers(t, "docs/architecture.md")
	if len(layers) < 10 {
		t.Fatalf("docs/architecture.md: found %d packages in its table, want them all", len(layers))
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/toguz/toguz"
	rel := func(path string) (string, bool) {
		if path == module {
			return ".", true
		}
		p, ok := strings.CutPrefix(path, module+"/")
		return p, ok
	}
	imports := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		pkg, _ := rel(f[0])
		imports[pkg] = nil
		for _, imp := range f[1:] {
			if p, ok := rel(imp); ok {
				imports[pkg] = append(imports[pkg], p)
			}
		}
	}
	for pkg := range imports {
		if _, ok := layers[pkg]; !ok {
			t.Errorf("package %s is not in docs/architecture.md's table", pkg)
		}
	}
	for pkg := range layers {
		if _, ok := imports[pkg]; !ok {
			t.Errorf("docs/architecture.md names %s, which go list does not list", pkg)
		}
	}
	for pkg, imps := range imports {
		if _, ok := layers[pkg]; !ok {
			continue
		}
		for _, imp := range imps {
			if l, li := layers[pkg], layers[imp]; li > l {
				t.Errorf("%s (layer %d) imports %s (layer %d): an arrow from a lower layer to a higher one", pkg, l, imp, li)
			}
		}
	}
}

// docLayers reads the table of "## The packages, in layers": its rows
// "| `path` | N name | …", each package once.
func docLayers(t *testing.T, name string) map[string]int {
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile("^\\| `([^`]+)` \\| ([0-9]+) ")
	layers := map[string]int{}
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## The packages, in layers"
			continue
		}
		m := row.FindStringSubmatch(line)
		if !in || m == nil {
			continue
		}
		if _, dup := layers[m[1]]; dup {
			t.Errorf("%s:%d: %s is named twice", name, n, m[1])
		}
		layers[m[1]], _ = strconv.Atoi(m[2])
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return layers
}
