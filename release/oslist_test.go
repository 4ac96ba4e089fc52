package release

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/zeitnot/zeitnot/internal/pgnreaders"
)

// The Imager repository os-list.sh writes passes Raspberry Pi Imager's
// own schema (testdata/os-list-schema.json, vendored): by the schema's
// keywords as validate reads them, and by ajv where node is installed. The
// icon it names is there, beside the image.
func TestOSListSchema(t *testing.T) {
	need(t, "xz", "sha256sum")
	dir := t.TempDir()
	file := filepath.Join(dir, testName+".os_list.json")
	raw := filepath.Join(dir, testName+".img")
	if err := os.WriteFile(raw, make([]byte, 1<<16), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, dir, nil, "xz", "-3", raw)
	const url = "https://club.example/zeitnot"
	mustRun(t, ".", []string{"ZEITNOT_RELEASE_URL=" + url, "SOURCE_DATE_EPOCH=1767225600"}, "./os-list.sh", dir)
	doc, _ := checkList(t, dir, make([]byte, 1<<16), url)
	schema := imagerSchema(t)
	if a, err := os.ReadFile(filepath.Join(dir, "zeitnot-icon.png")); err != nil {
		t.Errorf("no icon beside the image: %v", err)
	} else if b, _ := os.ReadFile("zeitnot-icon.png"); string(a) != string(b) {
		t.Errorf("the icon beside the image is not zeitnot-icon.png")
	}

	// Each anyOf entry of os_list requires other fields: the test's own
	// validator fails a file without its icon.
	delete(doc.(map[string]any)["os_list"].([]any)[0].(map[string]any), "icon")
	if errs := validate(schema, doc, "$"); len(errs) == 0 {
		t.Errorf("an entry without its icon passes validate")
	}

	t.Run("ajv", func(t *testing.T) {
		hdir := pgnreaders.Ready(t)
		out, err := exec.Command("node", filepath.Join(hdir, "read.mjs"), "--schema", "testdata/os-list-schema.json", file).Output()
		if err != nil {
			t.Fatalf("ajv: %v", err)
		}
		var r struct {
			OK     bool
			Errors []any
		}
		if err := json.Unmarshal(out, &r); err != nil || !r.OK {
			t.Errorf("ajv: %v %s", err, out)
		}
	})
}

func imagerSchema(t *testing.T) map[string]any {
	t.Helper()
	js, err := os.ReadFile("testdata/os-list-schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(js, &schema); err != nil {
		t.Fatal(err)
	}
	return schema
}

// checkList checks the Imager repository os-list.sh wrote into dir for
// the image img (its raw bytes, the .xz beside the list): it passes the
// Imager's schema (validate), has one entry, named for testVersion,
// released on SOURCE_DATE_EPOCH 1767225600's day, whose image and icon are
// at base, with the sizes and SHA-256 sums of img and of the .xz. It
// returns the list as JSON decodes it and the .xz's bytes.
func checkList(t *testing.T, dir string, img []byte, base string) (doc any, xz []byte) {
	t.Helper()
	file := filepath.Join(dir, testName+".os_list.json")
	js, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatalf("%s: %v\n%s", file, err, js)
	}
	if errs := validate(imagerSchema(t), doc, "$"); len(errs) > 0 {
		t.Errorf("%s fails the Imager's schema:\n%s\n%s", file, strings.Join(errs, "\n"), js)
	}
	var list struct {
		OSList []struct {
			Name, Icon, URL string
			ReleaseDate     string `json:"release_date"`
			ExtractSize     int64  `json:"extract_size"`
			ExtractSHA256   string `json:"extract_sha256"`
			DownloadSize    int64  `json:"image_download_size"`
			DownloadSHA256  string `json:"image_download_sha256"`
		} `json:"os_list"`
	}
	if err := json.Unmarshal(js, &list); err != nil {
		t.Fatalf("%s: %v\n%s", file, err, js)
	}
	if len(list.OSList) != 1 {
		t.Fatalf("os_list has %d entries, want 1", len(list.OSList))
	}
	if xz, err = os.ReadFile(filepath.Join(dir, testName+".img.xz")); err != nil {
		t.Fatal(err)
	}
	e := list.OSList[0]
	for _, c := range []struct{ what, got, want string }{
		{"name", e.Name, "zeitnot " + testVersion},
		{"url", e.URL, base + "/" + testName + ".img.xz"},
		{"icon", e.Icon, base + "/zeitnot-icon.png"},
		{"release_date", e.ReleaseDate, "2026-01-01"},
		{"extract_sha256", e.ExtractSHA256, sum(img)},
		{"image_download_sha256", e.DownloadSHA256, sum(xz)},
	} {
		if c.got != c.want {
			t.Errorf("os_list %s = %q, want %q", c.what, c.got, c.want)
		}
	}
	if e.ExtractSize != int64(len(img)) || e.DownloadSize != int64(len(xz)) {
		t.Errorf("os_list sizes %d, %d; want %d, %d", e.ExtractSize, e.DownloadSize, len(img), len(xz))
	}
	return doc, xz
}

// validate checks v against the JSON schema keywords the Imager's schema
// uses (draft-07: type, required, properties, additionalProperties,
// items, additionalItems, anyOf, enum) and returns what fails, by path.
func validate(s map[string]any, v any, path string) []string {
	var errs []string
	if t, ok := s["type"].(string); ok && !isType(v, t) {
		return []string{fmt.Sprintf("%s: want %s, got %T", path, t, v)}
	}
	if enum, ok := s["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			found = found || fmt.Sprint(e) == fmt.Sprint(v)
		}
		if !found {
			errs = append(errs, fmt.Sprintf("%s: %v is not one of %v", path, v, enum))
		}
	}
	if alts, ok := s["anyOf"].([]any); ok {
		var why []string
		pass := false
		for i, sub := range alts {
			e := validate(sub.(map[string]any), v, path)
			pass = pass || len(e) == 0
			why = append(why, fmt.Sprintf("anyOf %d: %s", i, strings.Join(e, "; ")))
		}
		if !pass {
			errs = append(errs, fmt.Sprintf("%s: none of anyOf: %s", path, strings.Join(why, " | ")))
		}
	}
	switch x := v.(type) {
	case map[string]any:
		req, _ := s["required"].([]any)
		for _, r := range req {
			if _, ok := x[r.(string)]; !ok {
				errs = append(errs, fmt.Sprintf("%s: %s is required", path, r))
			}
		}
		props, _ := s["properties"].(map[string]any)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, validate(ps, x[k], path+"."+k)...)
			} else if ap, ok := s["additionalProperties"].(bool); ok && !ap {
				errs = append(errs, fmt.Sprintf("%s: %s is not allowed", path, k))
			} else if ap, ok := s["additionalProperties"].(map[string]any); ok {
				errs = append(errs, validate(ap, x[k], path+"."+k)...)
			}
		}
	case []any:
		switch items := s["items"].(type) {
		case map[string]any:
			for i, e := range x {
				errs = append(errs, validate(items, e, fmt.Sprintf("%s[%d]", path, i))...)
			}
		case []any:
			for i, e := range x {
				if i < len(items) {
					errs = append(errs, validate(items[i].(map[string]any), e, fmt.Sprintf("%s[%d]", path, i))...)
				} else if ai, ok := s["additionalItems"].(bool); ok && !ai {
					errs = append(errs, fmt.Sprintf("%s[%d]: no more items allowed", path, i))
				}
			}
		}
	}
	return errs
}

func isType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == float64(int64(f))
	case "null":
		return v == nil
	}
	return true
}
