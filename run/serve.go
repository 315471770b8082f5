package run

import (
	"context"
	"errors"
	"net"
	"net/http"
)

// ServeLoopback serves handler on a loopback address that a flag asks for (--pprof,
// --prometheus-listen) until stop is called. It refuses any address but loopback: these servers
// have no authentication and expose the process or the run to whoever can connect. Errors are
// SettingErrors naming the flag.
func ServeLoopback(ctx context.Context, flag, addr string, handler http.Handler) (stop func(), err error) {
	ln, err := listenLoopback(flag, addr)
	if err != nil {
		return nil, err
	}
	return serveHTTP(ctx, ln, handler), nil
}

func listenLoopback(flag, addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, settingf("--%s: %w", flag, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, settingf("--%s: listens on loopback only, such as 127.0.0.1:PORT (got %s)", flag, addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, settingf("--%s: %w", flag, err)
	}
	return ln, nil
}

// serveHTTP serves handler on ln in the background. stop closes the server and waits for it;
// a listener that breaks meanwhile only ends the serving, never the run.
func serveHTTP(ctx context.Context, ln net.Listener, handler http.Handler) (stop func()) {
	srv := &http.Server{Handler: handler, BaseContext: func(net.Listener) context.Context { return ctx }}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return // the run goes on without this server
		}
	}()
	return func() {
		_ = srv.Close()
		<-done
	}
}
