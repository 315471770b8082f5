package urls

import (
	"errors"
	"net/url"
	"strings"
	"testing"
)

func TestEscapeValue(t *testing.T) {
	t.Parallel()
	const token = `d41d8cd98f00b204e9800998ecf8427e+\`
	tests := []struct {
		name  string
		value string
		in    Place
		want  string
	}{
		{"url: MediaWiki token", token, InURL, "d41d8cd98f00b204e9800998ecf8427e%2B%5C"},
		{"url: delimiters of paths and queries", "a/b?c=d&e#f g", InURL, "a%2Fb%3Fc%3Dd%26e%23f%20g"},
		{"url: unreserved kept", "AZaz09-._~", InURL, "AZaz09-._~"},
		{"url: UTF-8 byte by byte", "Zoë", InURL, "Zo%C3%AB"},
		{"url: percent", "100%", InURL, "100%25"},
		{"form: MediaWiki token", token, InForm, "d41d8cd98f00b204e9800998ecf8427e%2B%5C"},
		{"form: space as plus", "Main Page&x=1", InForm, "Main+Page%26x%3D1"},
		{"body: as is", `{"a":"b c"}` + "\n", InBody, `{"a":"b c"}` + "\n"},
		{"header: as is", "Bearer " + token, InHeader, "Bearer " + token},
		{"header: tab kept", "a\tb", InHeader, "a\tb"},
		{"empty", "", InURL, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := EscapeValue(tt.value, tt.in)
			if err != nil || got != tt.want {
				t.Fatalf("EscapeValue(%q) = %q, %v; want %q", tt.value, got, err, tt.want)
			}
			switch tt.in {
			case InURL:
				if back, err := url.PathUnescape(got); err != nil || back != tt.value {
					t.Errorf("%q does not read back: %q, %v", got, back, err)
				}
			case InForm:
				if back, err := url.ParseQuery("v=" + got); err != nil || back.Get("v") != tt.value {
					t.Errorf("%q does not read back as a form value: %q, %v", got, back.Get("v"), err)
				}
			}
		})
	}
}

// A value that would end a header and start another one (response splitting the other way
// round) is refused, and the message does not show it: values can be secrets.
func TestEscapeValueRefusesHeaderBreaks(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"s3cr3t\r\nX-Evil: 1", "s3cr3t\n", "s3cr3t\r", "s3cr3t\x00"} {
		got, err := EscapeValue(v, InHeader)
		if !errors.Is(err, ErrValueBreaksHeader) || got != "" {
			t.Errorf("EscapeValue(%q, InHeader) = %q, %v; want ErrValueBreaksHeader", v, got, err)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("the message shows the value: %v", err)
		}
		if _, err := EscapeValue(v, InURL); err != nil {
			t.Errorf("EscapeValue(%q, InURL) = %v: a URL escapes these bytes", v, err)
		}
	}
}

func TestBodyPlace(t *testing.T) {
	t.Parallel()
	for ct, want := range map[string]Place{
		"application/x-www-form-urlencoded":                InForm,
		"Application/X-WWW-Form-URLEncoded; charset=UTF-8": InForm,
		" application/x-www-form-urlencoded ":              InForm,
		"application/json":                                 InBody,
		"multipart/form-data; boundary=x":                  InBody,
		"":                                                 InBody,
	} {
		if got := BodyPlace(ct); got != want {
			t.Errorf("BodyPlace(%q) = %v, want %v", ct, got, want)
		}
	}
}

// FuzzEscapeValue checks that an escaped value always reads back as itself where it is put,
// and that a header value never carries a line break.
func FuzzEscapeValue(f *testing.F) {
	for _, s := range []string{`d41d8cd98f00b204e9800998ecf8427e+\`, "a b&c=d", "Zoë%", "x\r\ny"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		u, _ := EscapeValue(v, InURL)
		if back, err := url.PathUnescape(u); err != nil || back != v || strings.ContainsAny(u, " &=+?#/\r\n") {
			t.Fatalf("InURL %q -> %q -> %q, %v", v, u, back, err)
		}
		form, _ := EscapeValue(v, InForm)
		if back, err := url.ParseQuery("v=" + form); err != nil || back.Get("v") != v {
			t.Fatalf("InForm %q -> %q -> %q, %v", v, form, back.Get("v"), err)
		}
		h, err := EscapeValue(v, InHeader)
		if err == nil && (h != v || strings.ContainsAny(h, "\r\n\x00")) {
			t.Fatalf("InHeader %q -> %q", v, h)
		}
	})
}
