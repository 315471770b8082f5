package extract

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

// httpHeader gives a net/http response's header the method set that Response.Header wants
// (the engine's fasthttp header has it as it is).
type httpHeader http.Header

func (h httpHeader) Peek(name string) []byte {
	if v := http.Header(h).Get(name); v != "" {
		return []byte(v)
	}
	return nil
}

// PeekCookie returns the whole Set-Cookie line, as fasthttp does.
func (h httpHeader) PeekCookie(name string) []byte {
	for _, line := range http.Header(h).Values("Set-Cookie") {
		if k, _, _ := strings.Cut(line, "="); strings.TrimSpace(k) == name {
			return []byte(line)
		}
	}
	return nil
}

// secret is a value that no message may show.
const secret = "s3cr3t-0123456789"

// fetch asks a loopback server that answers with body and header for / and returns the response
// as the engine would hand it over.
func fetch(t *testing.T, body string, header http.Header) Response {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		for k, vs := range header {
			for _, v := range vs {
				w.Header().Add(k, v)
			}
		}
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	resp, err := srv.Client().Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return Response{Body: b, Header: httpHeader(resp.Header)}
}

func readPage(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

const jsonBody = `{"login":{"result":"NeedToken","token":"abc+\\"},"items":[{"id":17},{"id":12345678901234567890}],"ok":true,"none":null,"name":"Zoë"}`

func TestExtract(t *testing.T) {
	t.Parallel()
	mediawiki := readPage(t, "mediawiki-login.html")
	wordpress := readPage(t, "wordpress-login.html")
	header := http.Header{
		"Location":   {"/index.php?title=Main_Page"},
		"X-Token":    {secret, "second"},
		"Set-Cookie": {"other=1; Path=/", "wiki_session=" + secret + "; path=/; HttpOnly", "quoted=\"a b\"; Path=/", "gone=; Max-Age=0"},
	}
	tests := []struct {
		name, body, rule, want string
	}{
		{"mediawiki token by css", mediawiki, "token css:input[name=wpLoginToken] value", `d41d8cd98f00b204e9800998ecf8427e+\`},
		{"mediawiki token by regex", mediawiki, `token regex:value="([^"]*)" name="wpLoginToken"`, `d41d8cd98f00b204e9800998ecf8427e+\`},
		{"mediawiki edit token by id", mediawiki, "t css:#wpEditToken value", `+\`},
		{"mediawiki heading text", mediawiki, "h css:#firstHeading text", "Log in"},
		{"mediawiki form action entity-decoded", mediawiki, "a css:form[name=userlogin] action", "/index.php?title=Special:UserLogin&returnto=Main+Page"},
		{"wordpress nonce", wordpress, "nonce css:form#loginform input[name=_wpnonce] value", "a1b2c3d4e5"},
		{"wordpress redirect", wordpress, "to css:input[name=redirect_to] value", "http://127.0.0.1/wp-admin/"},
		{"wordpress text decoded and trimmed", wordpress, "who css:#greeting b text", "Ann & Bob"},
		{"wordpress first of many", wordpress, "first css:input[type=hidden] name", "redirect_to"},
		{"rails csrf meta in the head", `<html><head><meta name="csrf-param" content="authenticity_token"><meta name="csrf-token" content="Zx9/a+b==">`, "t css:meta[name=csrf-token] content", "Zx9/a+b=="},
		{"django csrf field", `<form method="post"><input type="hidden" name="csrfmiddlewaretoken" value="k3Y"></form>`, "t css:input[name=csrfmiddlewaretoken] value", "k3Y"},
		{"regex whole match", wordpress, `n regex:a1b2c\w+`, "a1b2c3d4e5"},
		{"json string", jsonBody, "t json:login.token", `abc+\`},
		{"json big number kept as written", jsonBody, "id json:items.1.id", "12345678901234567890"},
		{"json bool", jsonBody, "ok json:ok", "true"},
		{"json unicode", jsonBody, "n json:name", "Zoë"},
		{"json object as written", jsonBody, "o json:items.0", `{"id":17}`},
		{"header", "", "loc header:Location", "/index.php?title=Main_Page"},
		{"header name in any case, first value", "", "x header:x-token", secret},
		{"cookie", "", "sid cookie:wiki_session", secret},
		{"quoted cookie kept as sent back", "", "q cookie:quoted", `"a b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mustParse(t, tt.rule)
			got, err := r.Extract(fetch(t, tt.body, header))
			if err != nil || got != tt.want {
				t.Errorf("%s = %q, %v; want %q", tt.rule, got, err, tt.want)
			}
		})
	}
}

func TestExtractMisses(t *testing.T) {
	t.Parallel()
	mediawiki := readPage(t, "mediawiki-login.html")
	header := http.Header{"X-Token": {secret}, "Set-Cookie": {"sid=" + secret + "; Path=/", "gone=; Max-Age=0"}}
	secretPage := `<p id="x">` + secret + `</p>` + mediawiki
	tests := []struct {
		name, body, rule, want string
	}{
		{"css no element", mediawiki, "token css:input[name=wpToken] value", "extract token: css:input[name=wpToken] value: no match"},
		{"css no attribute", mediawiki, "f css:input[name=force] value", "extract f: css:input[name=force] value: the element has no value attribute"},
		{"css on an empty body", "", "t css:p text", "extract t: css:p text: no match"},
		{"regex no match", secretPage, "t regex:wpToken=(\\w+)", `extract t: regex:wpToken=(\w+): no match`},
		{"regex group left out", secretPage, "t regex:id=\"x\">(nothing)?", `extract t: regex:id="x">(nothing)?: group 1 took no part in the match`},
		{"json absent", jsonBody, "t json:login.csrf", "extract t: json:login.csrf: no match"},
		{"json null", jsonBody, "t json:none", "extract t: json:none: null"},
		{"json on html", secretPage, "t json:token", "extract t: json:token: no match: the body is not JSON"},
		{"header absent", "", "t header:X-Csrf", "extract t: header:X-Csrf: no such header"},
		{"cookie absent", "", "t cookie:session", "extract t: cookie:session: no Set-Cookie for session"},
		{"cookie cleared", "", "t cookie:gone", "extract t: cookie:gone: the Set-Cookie for gone is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mustParse(t, tt.rule)
			got, err := r.Extract(fetch(t, tt.body, header))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("%s = %q, %v; want the error %q", tt.rule, got, err, tt.want)
			}
			if !errors.Is(err, ErrMissing) {
				t.Errorf("errors.Is(%v, ErrMissing) = false", err)
			}
			var me *MissingError
			if !errors.As(err, &me) || me.Rule.String() != r.String() {
				t.Errorf("error %v does not carry its rule", err)
			}
			if strings.Contains(err.Error(), secret) || got != "" {
				t.Errorf("a miss shows a response value: %q, %q", got, err)
			}
		})
	}
}

func TestExtractWithoutHeader(t *testing.T) {
	t.Parallel()
	for _, rule := range []string{"t header:X", "t cookie:sid"} {
		r := mustParse(t, rule)
		if _, err := r.Extract(Response{Body: []byte("x")}); !errors.Is(err, ErrMissing) {
			t.Errorf("%s on a response without a header = %v, want a miss", rule, err)
		}
	}
	if _, err := (Rule{}).Extract(Response{Body: []byte("x")}); !errors.Is(err, ErrMissing) {
		t.Errorf("the zero Rule = %v, want a miss", err)
	}
}

// TestExtractReadsAtMostMaxBody pins the bound: a value beyond MaxBody is not found, and the
// message says why, while the same value inside it is.
func TestExtractReadsAtMostMaxBody(t *testing.T) {
	t.Parallel()
	pad := bytes.Repeat([]byte(" "), MaxBody)
	tests := []struct {
		name, rule, value string
	}{
		{"regex", "t regex:token=(\\w+)", "token=abc"},
		{"css", "t css:#t value", `<input id="t" value="abc">`},
		{"json", "t json:t", `{"t":"abc"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := mustParse(t, tt.rule)
			inside := append([]byte(tt.value), pad...)
			if got, err := r.Extract(Response{Body: inside}); err != nil || got != "abc" {
				t.Errorf("value at the start = %q, %v; want abc", got, err)
			}
			beyond := append(append([]byte{}, pad...), tt.value...)
			_, err := r.Extract(Response{Body: beyond})
			if err == nil || !strings.Contains(err.Error(), "in the first 2 MiB") {
				t.Errorf("value beyond MaxBody = %v, want a miss that names the bound", err)
			}
		})
	}
}

// TestExtractCopiesValue pins that a value outlives the buffer it came from: the engine reuses
// its response buffers.
func TestExtractCopiesValue(t *testing.T) {
	t.Parallel()
	for _, rule := range []string{"t regex:v=(\\w+)", "t json:v", "t css:#v value"} {
		r := mustParse(t, rule)
		body := []byte(`{"v":"abc"} v=abc <b id="v" value="abc">`)
		got, err := r.Extract(Response{Body: body})
		if err != nil {
			t.Fatal(err)
		}
		for i := range body {
			body[i] = 'x'
		}
		if got != "abc" {
			t.Errorf("%s: value changed with the buffer: %q", rule, got)
		}
	}
}
