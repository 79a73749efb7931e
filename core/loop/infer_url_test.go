package loop

import (
	"context"
	"errors"
	"net"
	"syscall"
	"testing"
	"time"

	"boxmaker/core/llamastandin"
)

// A client given the server's URL asks it directly, as init and the demo
// do before inferproxy runs: the same answers as through the socket.
func TestClientAsksAServerByURL(t *testing.T) {
	srv, err := llamastandin.Start(llamastandin.Options{Model: "qwen3.5"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c := &Client{URL: srv.URL() + "/", Model: "qwen3.5", Timeout: 10 * time.Second}
	ids, err := c.Models(context.Background())
	if err != nil || len(ids) != 1 || ids[0] != "qwen3.5" {
		t.Fatalf("Models = %q, %v; want [qwen3.5]", ids, err)
	}
	p, err := c.Props(context.Background())
	if err != nil || p.ChatTemplate == "" || p.NCtx == 0 || p.TotalSlots == 0 {
		t.Fatalf("Props = %+v, %v", p, err)
	}
}

// A server that is not there is a dial error the caller can tell apart
// (init and the demo say it in words).
func TestClientByURLKeepsTheDialError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c := &Client{URL: "http://" + addr, Timeout: 5 * time.Second}
	_, err = c.Models(context.Background())
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("Models = %v, want a refused connection", err)
	}
}

// A request the server does not answer in time is a timeout.
func TestClientStallIsATimeout(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			defer conn.Close() // accepted, never answered
		}
	}()
	c := &Client{URL: "http://" + ln.Addr().String(), Timeout: 50 * time.Millisecond}
	_, err = c.Models(context.Background())
	var te interface{ Timeout() bool }
	if !errors.As(err, &te) || !te.Timeout() {
		t.Fatalf("Models = %v, want a timeout", err)
	}
}
