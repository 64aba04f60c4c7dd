package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toguz/toguz/internal/botapi"
	"github.com/toguz/toguz/internal/game"
	"github.com/toguz/toguz/internal/server"
	"github.com/toguz/toguz/internal/store"
	"github.com/toguz/toguz/internal/testbin"
)

// TestBotCommand runs two `toguz bot` commands against a server, one with
// the built-in engine, the other with `toguz engine` as its -engine
// program (the engine protocol); the first upgrades its account with
// -upgrade. One challenges the other by the API; the game is played to its
// end over the streams and stored as rated in the bots' category.
func TestBotCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and plays a game")
	}
	bin, cleanup, err := testbin.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	db := filepath.Join(t.TempDir(), "toguz.db")
	srv, err := server.StartLocal(context.Background(), server.Options{DB: db, Engines: 1, AnalysisEngines: -1, ReviewWorkers: -1,
		Settings: server.Settings{Ladder: botapi.LadderConfig{Every: -1}}})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			srv.Close()
		}
	}()
	call := func(method, path, token string, body any) map[string]any {
		t.Helper()
		var b bytes.Buffer
		json.NewEncoder(&b).Encode(body)
		req, _ := http.NewRequest(method, srv.URL+path, &b)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var m map[string]any
		json.NewDecoder(resp.Body).Decode(&m)
		if resp.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %v", method, path, resp.StatusCode, m)
		}
		return m
	}
	tokens := map[string]string{}
	for _, name := range []string{"builtinbot", "processbot"} {
		session := call("POST", "/api/signup", "", map[string]string{"name": name, "password": "correct horse battery"})["token"].(string)
		tokens[name] = call("POST", "/api/token", session, map[string]any{"description": "test", "scopes": []string{"bot:play"}})["token"].(string)
	}
	call("POST", "/api/bot/account/upgrade", tokens["processbot"], nil)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	outs := map[string]*syncBuffer{}
	for name, args := range map[string][]string{
		"builtinbot": {"-level", "1", "-upgrade"},
		"processbot": {"-engine", bin + " engine", "-option", "Level=1"},
	} {
		out := &syncBuffer{}
		outs[name] = out
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := run(ctx, env{args: append([]string{"bot", "-url", srv.URL, "-token", tokens[name]}, args...), stdout: out, stderr: out})
			if err != 0 && ctx.Err() == nil {
				t.Errorf("%s exited %d: %s", name, err, out.String())
			}
		}()
	}
	for !strings.Contains(outs["builtinbot"].String(), "playing as") || !strings.Contains(outs["processbot"].String(), "playing as") {
		if ctx.Err() != nil {
			t.Fatal("the bots did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // their event streams open
	form := url.Values{"tc": {"3+2"}, "rated": {"true"}}
	req, _ := http.NewRequest("POST", srv.URL+"/api/challenge/processbot", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+tokens["builtinbot"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("challenge: %v %v", resp, err)
	}
	resp.Body.Close()
	for !strings.Contains(outs["builtinbot"].String(), " over: ") || !strings.Contains(outs["processbot"].String(), " over: ") {
		if ctx.Err() != nil {
			t.Fatalf("no game over:\n%s\n%s", outs["builtinbot"], outs["processbot"])
		}
		time.Sleep(50 * time.Millisecond)
	}
	cancel()
	wg.Wait()
	// -upgrade upgrades without first warning that the account is not a bot.
	if o := outs["builtinbot"].String(); strings.Contains(o, "not a bot") || !strings.Contains(o, "is a bot now") {
		t.Errorf("builtinbot with -upgrade said:\n%s", o)
	}
	line := outs["processbot"].String()
	id := strings.Fields(line[strings.Index(line, "game "):])[1]
	closed = true
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := st.Game(context.Background(), id)
	if err != nil || g.Status != game.Ended || !g.Rated || g.Plies < 10 {
		t.Errorf("game %s: %+v, %v", id, g, err)
	}
}
