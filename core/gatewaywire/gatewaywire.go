// Package gatewaywire is gateway.sock's protocol: the kinds, bodies and
// answers that brokerd's courier (core/broker) and gatewayd (core/gateway)
// exchange, each defined once here and imported by both sides. The
// socket carries core/daemon's one request and answer per connection, each
// body read by daemon.DecodeBody (one that is not its kind's is
// socket-forbidden); it is gatewayd's, 0600 in a 0700 directory, and
// brokerd connects to it.
//
// An approval's life on it (docs/specs/gateway.md, section 6):
//
//	approval.post   Post -> Posted      gatewayd posts the approval in Mattermost, or finds the
//	                                    posts it made for it before (by id and call hash): the
//	                                    courier calls it again after any failure
//	approval.wait   Wait -> Answered    waits up to Wait.WaitMS for an approver's !approve or
//	                                    !refuse (Answered.Answer "" when none came)
//	approval.settle Settle -> Settled   how the approval ended (answered in Mattermost or by
//	                                    bxctl, expired, abandoned): gatewayd edits its posts and
//	                                    replies to the command that answered it
package gatewaywire

import "boxmaker/core/brokerwire"

// The request kinds of gateway.sock.
const (
	KindApprovalPost   = "approval.post"
	KindApprovalWait   = "approval.wait"
	KindApprovalSettle = "approval.settle"
)

// Post asks gatewayd to post a pending approval: the approval as
// brokerd's admin socket shows it (brokerwire.Pending).
type Post struct {
	Approval brokerwire.Pending `json:"approval"`
}

// Posted is where the approval was posted: the number of posts (one in
// the conversation's thread, or one DM per approver).
type Posted struct {
	Posts int `json:"posts"`
	// Again: the posts existed already (a retry after a failure).
	Again bool `json:"again"`
}

// Wait asks for an answer to the approval ID given in Mattermost.
type Wait struct {
	ID       string `json:"id"`
	CallHash string `json:"call_sha256"`
	WaitMS   int    `json:"wait_ms"`
}

// Answered is an approver's answer, or none yet (Answer "").
type Answered struct {
	Answer string `json:"answer"` // brokerwire.Approve, brokerwire.Refuse or ""
	// By is who answered, as brokerd records it: the Mattermost user.
	By  string `json:"by,omitempty"`
	Why string `json:"why,omitempty"`
	// Command is the post that answered, for the reply that says how it
	// went.
	Command string `json:"command,omitempty"`
}

// The ways an approval ends, as Settle says.
const (
	OutcomeApproved   = "approved"
	OutcomeRefused    = "refused"
	OutcomeExpired    = "expired"
	OutcomeAbandoned  = "abandoned"   // brokerd stopped before an answer
	OutcomeWithdrawn  = "withdrawn"   // the caller went before an answer (the reply was stopped)
	OutcomeNotPending = "not-pending" // an answer from Mattermost came too late
)

// Settle tells gatewayd how the approval ended.
type Settle struct {
	ID       string `json:"id"`
	CallHash string `json:"call_sha256"`
	Outcome  string `json:"outcome"`
	By       string `json:"by,omitempty"`
	Why      string `json:"why,omitempty"`
	// Command is the Mattermost post that answered (Answered.Command),
	// replied to; "" when it was not answered there.
	Command string `json:"command,omitempty"`
	// Text is brokerd's words for a not-pending answer.
	Text string `json:"text,omitempty"`
}

// Settled says gatewayd took it.
type Settled struct {
	Edited int `json:"edited"` // posts edited
}
