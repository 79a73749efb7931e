// Command fakemm serves the fake Mattermost (core/testpeer/fakemattermost)
// inside the boot test's Debian system, where the installed gatewayd
// connects to it: a bot "boxmaker" whose token is --bot-token (the one the
// test encrypted as gatewayd's credential) and a user "ann". It writes
// {"url", "bot", "ann"} to --info, and serves on --control the test's two
// requests: POST /dm?text=T (ann sends the bot T; answers the post id)
// and GET /replies?post=ID (the bot's posts in that thread, as JSON).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"

	"boxmaker/core/testpeer/fakemattermost"
)

func main() {
	token := flag.String("bot-token", "", "the bot's access token")
	info := flag.String("info", "", "where to write the url and the users' ids")
	control := flag.String("control", "127.0.0.1:8066", "the test's control address")
	flag.Parse()
	srv := fakemattermost.Start(fakemattermost.Options{})
	bot, _ := srv.AddUserWithToken("boxmaker", true, *token)
	ann, _ := srv.AddUser("ann", false)
	dm := srv.DM(bot.ID, ann.ID)
	data, _ := json.Marshal(map[string]string{"url": srv.URL, "bot": bot.ID, "ann": ann.ID})
	if err := os.WriteFile(*info, data, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "fakemm:", err)
		os.Exit(1)
	}
	http.HandleFunc("/dm", func(w http.ResponseWriter, r *http.Request) {
		p, err := srv.PostAs(ann.ID, dm.ID, "", r.URL.Query().Get("text"))
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		fmt.Fprint(w, p.ID)
	})
	http.HandleFunc("/replies", func(w http.ResponseWriter, r *http.Request) {
		var out []string
		for _, p := range srv.Thread(r.URL.Query().Get("post")) {
			if p.UserID == bot.ID {
				out = append(out, p.Message)
			}
		}
		json.NewEncoder(w).Encode(out)
	})
	fmt.Printf("fakemm: serving %s, control on %s\n", srv.URL, *control)
	if err := http.ListenAndServe(*control, nil); err != nil {
		fmt.Fprintln(os.Stderr, "fakemm:", err)
		os.Exit(1)
	}
}
