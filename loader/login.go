package loader

import (
	"fmt"
	"strconv"
	"time"
)

// logIn makes the user's login steps (Config.Login) before its visit of URL ti, in order, each
// with its redirects, and tells whether the visit goes on. It stops at the first step that
// fails its login (see Result.FailsLogin): the URL is then not sent but booked as a failure
// of kind ErrLogin, since it would be loaded logged out, and the user tries again before its
// next URL, as a person whose login failed does (a site that refused a login under load may
// take the next). A run stopped between steps ends the visit with the steps made: a login cut
// short is not one made, and no URL follows it. A relogin (Config.ReloginEvery) first ends the
// user's session, and so does a new try after a failed login. j is the open model's slot of
// the visit, which the first step takes.
func (v *visitor) logIn(ti int, j *job, b *batcher) bool {
	l := v.l
	if v.started {
		v.logOut()
	}
	v.started, v.loggedIn, v.visits = true, true, 0
	for i := range l.cfg.Login {
		li := len(l.targets) + i
		v.chain(v.x, li, KindLogin, l.templates[li], l.urlFor(li), "", 0, j, &v.results)
		j = nil
		if l.stopped.Load() {
			v.loggedIn = false
			v.x.body.release()
			v.flush(b, 0)
			return false
		}
		if last := &v.results[len(v.results)-1]; last.FailsLogin() {
			v.loggedIn = false
			v.notLoggedIn(ti, i, last, b)
			return false
		}
	}
	return true
}

// logOut ends the user's session before it logs in again, as a browser whose session
// expired: no cookies, no extracted values; its data row stays.
func (v *visitor) logOut() {
	if v.cookies != nil {
		v.cookies = newCookies()
	}
	if v.x.sess != nil {
		v.x.sess.reset()
	}
}

// notLoggedIn books URL ti, which the user does not send because its login failed at step
// (from 0) with the result failed: a failure of kind ErrLogin with nothing sent (Status 0),
// then its page, which failed the same way.
func (v *visitor) notLoggedIn(ti, step int, failed *Result, b *batcher) {
	l := v.l
	l.loginFailed(step, failed)
	now := time.Since(l.start)
	first := len(v.results)
	v.results = append(v.results, Result{Start: now, Intended: now, Target: int32(ti), User: int32(v.id),
		Kind: KindURL, Err: ErrLogin, AfterStop: l.stopped.Load()})
	v.finish(ti, first, nil, now, b)
}

// loginFailed keeps the run's first message of kind ErrLogin: which step failed, and how. It
// names neither the step's URL nor its answer, which may carry an account's name or a token.
// Like a failed check, a URL not sent is no missing response: it does not count towards
// MaxFailures (the step that failed does, when it got no response).
func (l *Loader) loginFailed(step int, failed *Result) {
	if l.sampled[ErrLogin].Load() {
		return
	}
	how := "HTTP " + strconv.Itoa(int(failed.Status))
	if failed.Err != ErrNone {
		how = failed.Err.String()
	}
	l.samplesMu.Lock()
	defer l.samplesMu.Unlock()
	if _, ok := l.samples[ErrLogin]; !ok {
		l.samples[ErrLogin] = fmt.Sprintf("not sent: the user's login failed at step %d of %d (%s)", step+1, len(l.cfg.Login), how)
		l.sampled[ErrLogin].Store(true)
	}
}
