package remotewrite

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// An endpoint's refusal is told in one line that says why, and what it answered never shows the
// endpoint's password: a proxy's error page may echo the request's credentials, in the clear or
// as the basic-auth header, over several lines.
func TestSendTellsARefusalInOneLineWithoutCredentials(t *testing.T) {
	t.Parallel()
	const user, pass = "ops", "s3cret-pw"
	basic := base64.StdEncoding.EncodeToString([]byte(user + ":" + pass))
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter, r *http.Request)
		want   []string // in the message
	}{
		{"echoes the credentials", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusUnauthorized)
			u, p, _ := r.BasicAuth()
			_, _ = w.Write([]byte("<html>\n<body>\nno access for " + u + ":" + p + "\r\nheader: " + r.Header.Get("Authorization") + "\n</body></html>"))
		}, []string{"401 Unauthorized: <html> <body> no access for ops:#secret header: Basic #secret </body></html>"}},
		{"redirects", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "http://"+user+":"+pass+"@127.0.0.1:9/other", http.StatusTemporaryRedirect)
		}, []string{"307 Temporary Redirect to http://ops:xxxxx@127.0.0.1:9/other (not followed: give that URL)"}},
		{"never answers", func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body) // then the request's context ends when the client goes
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
		}, []string{"no answer within 200ms"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(tc.answer))
			defer srv.Close()
			c := testClient(t, strings.Replace(srv.URL, "//", "//"+user+":"+pass+"@", 1)+"/api/v1/write")
			c.http.Timeout, c.attempts = 200*time.Millisecond, 1
			err := c.Send(context.Background(), someSeries())
			if err == nil {
				t.Fatal("Send succeeded")
			}
			msg := err.Error()
			if strings.Contains(msg, pass) || strings.Contains(msg, basic) || strings.ContainsAny(msg, "\r\n") {
				t.Errorf("message %q shows the password or spans lines", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q, want it to say %q", msg, w)
				}
			}
		})
	}
}

// A send whose time runs out (the run's last send is bounded) says what the endpoint did
// before that, then why it stopped, not twice "context deadline exceeded".
func TestSendSaysWhyItStopped(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	defer srv.Close()
	c := testClient(t, srv.URL)
	c.http.Timeout = 200 * time.Millisecond
	ctx, cancel := context.WithTimeoutCause(context.Background(), 300*time.Millisecond, errors.New("the send's time ran out"))
	defer cancel()
	err := c.Send(ctx, someSeries())
	if err == nil {
		t.Fatal("Send succeeded")
	}
	if want := "no answer within 200ms (then: the send's time ran out)"; !strings.HasSuffix(err.Error(), want) {
		t.Errorf("message %q, want it to end %q", err, want)
	}
}
