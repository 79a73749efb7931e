package sanitize

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The flag rules (docs/specs/sanitizer.md 6.3). They read Normalise(text),
// so each expression is written in lower case, and `\s` stands for the one
// space or line feed a run of white space became.
//
// Many are ported from Hermes Agent's shared threat patterns
// (NousResearch/hermes-agent, tools/threat_patterns.py, MIT licence,
// Copyright (c) Nous Research): prompt_injection, disregard_rules,
// sys_prompt_override, bypass_restrictions, html_comment_injection,
// hidden_div, translate_execute, deception_hide, role_hijack,
// role_pretend, leak_system_prompt, remove_filters, fake_update,
// identity_override, anti_forensic_*, env_var_unset_agent, c2_explicit,
// exfil_curl, exfil_wget, read_secrets, send_to_url, context_exfil,
// ssh_backdoor, agent_config_mod and hardcoded_secret. Where a Hermes
// pattern caught ordinary code work (any mention of authorized_keys or
// ~/.ssh, any curl with $TOKEN, any "send ... to https://"), it is narrowed
// here, and the comment on the pattern says how.
//
// Every pattern is anchored at one of its start words, and runs only on a
// window that starts there; Go's regexp is RE2, so no pattern backtracks.

// Flag rule names.
const (
	RuleFlagIgnoreInstructions = "flag-ignore-instructions"
	RuleFlagRoleHijack         = "flag-role-hijack"
	RuleFlagSendToURL          = "flag-send-to-url"
	RuleFlagDumpConversation   = "flag-dump-conversation"
	RuleFlagCredentialRead     = "flag-credential-read"
	RuleFlagSSHWrite           = "flag-ssh-write"
	RuleFlagAgentConfig        = "flag-agent-config"
	RuleFlagHiddenInstruction  = "flag-hidden-instruction"
	RuleFlagHardcodedSecret    = "flag-hardcoded-secret"
	RuleFlagConceal            = "flag-conceal-from-user"
	RuleFlagPromptware         = "flag-promptware"
	RuleFlagInstructionPhrase  = "flag-instruction-phrase"
)

var flagReasons = map[string]string{
	RuleFlagIgnoreInstructions: "an instruction to ignore or replace earlier instructions",
	RuleFlagRoleHijack:         "an attempt to give the agent another role",
	RuleFlagSendToURL:          "an instruction to send data to a URL",
	RuleFlagDumpConversation:   "an instruction to reveal the conversation or the system prompt",
	RuleFlagCredentialRead:     "an instruction to read a credential file",
	RuleFlagSSHWrite:           "an instruction to write SSH keys or configuration",
	RuleFlagAgentConfig:        "an instruction to change the agent's own configuration",
	RuleFlagHiddenInstruction:  "an instruction hidden in an HTML comment or a hidden element",
	RuleFlagHardcodedSecret:    "what looks like a secret assigned in code",
	RuleFlagConceal:            "an instruction to keep something from the user",
	RuleFlagPromptware:         "instructions shaped like command-and-control malware",
	RuleFlagInstructionPhrase:  "a phrase that gives orders to whoever reads it",
}

// Pieces of the expressions.
const (
	// filler is up to eight words between the words that matter
	// (Hermes's _FILLER, bounded so it cannot run away).
	filler = `(?:[\w'’-]+\s){0,8}`
	// secretVar is a shell variable named like a secret (Hermes's
	// _SECRET_VAR, lower case).
	secretVar = `\$\{?\w*(?:key|token|secret|password|passwd|credential)s?\b`
	// credentialFile is a file that holds credentials. A public key
	// (id_ed25519.pub) is not one, hence the character after id_*.
	credentialFile = `(?:\.ssh/id_[\w-]+(?:[^.\w-]|$)|\.aws/credentials|\.netrc\b|\.pgpass\b|\.git-credentials|` +
		`\.docker/config\.json|\.kube/config\b|\.npmrc\b|\.pypirc\b|/etc/shadow\b|\.gnupg/|\.config/gh/hosts\.yml|` +
		`\.password-store|\.vault-token|\.env(?:[^.\w-]|$)|credentials\.json)`
	// agentFile is one of Boxmaker's own files: its configurations, its
	// grants, its identity memory.
	agentFile = `(?:/etc/boxmaker\b|\$\{?boxmaker_home\b|\.state/etc/|\betc/(?:brokerd|loopd|memoryd|gatewayd|inferproxy|bxctl)\.toml|` +
		`\betc/grants\b|\bgrants/[\w.-]+\.toml|\b(?:brokerd|loopd|memoryd|gatewayd|inferproxy)\.toml|` +
		`\bmemory/(?:soul|memory|user|notes)\.md|\bsoul\.md)`
	// aimedAtModel is wording that addresses a model rather than a
	// person editing the page.
	aimedAtModel = `(?:ignore\s(?:[\w'-]+\s){0,4}(?:instructions|rules|above|previous)|disregard|system\sprompt|assistant|` +
		`\bai\s(?:agent|model)|\bagents?\b|\bllms?\b|language\smodel|do\snot\stell|don't\stell|secretly|new\sinstructions|you\sare\snow)`
)

// flagPattern is one expression of a flag rule.
// needsMet reports whether window, up to the first needsUntil byte when
// one is set, holds one of the words the pattern needs.
func (p *flagPattern) needsMet(window string) bool {
	region := window
	if p.needsUntil != 0 {
		if j := strings.IndexByte(region, p.needsUntil); j >= 0 {
			region = region[:j]
		}
	}
	return containsAny(region, p.needs)
}

type flagPattern struct {
	rule string
	// starts are the words a match begins with.
	starts []string
	// inWord lets a start be the end of a longer word (github_token); by
	// default a start must begin a word.
	inWord bool
	// lineStart wants a start at the start of a line.
	lineStart bool
	// needs, when set, are strings one of which the window must hold
	// before the expression runs (a cheap first test): as whole words
	// when every one is a word, else as substrings; with needsUntil, the
	// window up to the first such byte must hold one (the line, the HTML
	// tag).
	needs      []string
	needsUntil byte
	// span is the longest match in bytes: the window's length.
	span int
	re   *regexp.Regexp
	// check, when set, must accept the match: before is the normalised
	// line up to the match, window the text the expression ran on.
	check func(before, window string, match []int) bool
}

func fp(rule string, starts []string, span int, expr string) flagPattern {
	return flagPattern{rule: rule, starts: starts, span: span, re: regexp.MustCompile(`^(?:` + expr + `)`)}
}

func (p flagPattern) needing(s ...string) flagPattern { p.needs = s; return p }
func (p flagPattern) needingBefore(until byte, s ...string) flagPattern {
	p.needs, p.needsUntil = s, until
	return p
}
func (p flagPattern) inWords() flagPattern     { p.inWord = true; return p }
func (p flagPattern) atLineStart() flagPattern { p.lineStart = true; return p }
func (p flagPattern) checked(c func(string, string, []int) bool) flagPattern {
	p.check = c
	return p
}

var flagPatterns = []flagPattern{
	// Hermes prompt_injection and disregard_rules, with more verbs and
	// nouns; "ignore the vendor directory" and "ignore lint rules" pass.
	fp(RuleFlagIgnoreInstructions, []string{"ignore", "disregard", "forget", "bypass", "override", "skip"}, 400,
		`(?:ignore|disregard|forget|bypass|override|skip)\s`+filler+
			`(?:all|any|previous|prior|above|earlier|preceding|original|initial|former|your|system|safety|developer)\s`+filler+
			`(?:instructions?|directions|directives|prompts?|guidelines|system\sprompt)\b`).
		needing("instruction", "instructions", "directions", "directives", "prompt", "prompts", "guidelines"),
	fp(RuleFlagIgnoreInstructions, []string{"ignore", "disregard", "forget", "bypass", "override"}, 400,
		`(?:ignore|disregard|forget|bypass|override)\s`+filler+
			`(?:your|previous|prior|above|earlier|preceding|original|safety|system)\s`+filler+
			`(?:rules|restrictions|policies|safeguards|constraints|guardrails|filters|programming|training)\b`).
		needing("rules", "restrictions", "policies", "safeguards", "constraints", "guardrails", "filters", "programming", "training"),
	fp(RuleFlagIgnoreInstructions, []string{"disregard"}, 400,
		`disregard\s`+filler+`(?:all|any)\s`+filler+`(?:rules|guidelines)\b`),
	fp(RuleFlagIgnoreInstructions, []string{"forget"}, 120,
		`forget\s(?:everything|all|anything)\s(?:[\w'-]+\s){0,5}(?:above|before|previously|prior|earlier|told|instructions)\b`),
	fp(RuleFlagIgnoreInstructions, []string{"system"}, 40, `system\sprompt\soverride`),
	fp(RuleFlagIgnoreInstructions, []string{"replace", "overwrite", "change", "update", "rewrite"}, 120,
		`(?:replace|overwrite|change|update|rewrite)\s(?:your\s(?:[\w-]+\s){0,2}(?:instructions|system\sprompt|rules|guidelines|directives|programming)|the\ssystem\sprompt)\b`).
		needing("your", "system"),
	fp(RuleFlagIgnoreInstructions, []string{"new", "your"}, 80,
		`(?:your\s)?new\s(?:system\s)?(?:instructions|directives|prompt)\s?(?:are\b|:|follow\b)`).
		needing("instructions", "directives", "prompt"),

	// Hermes role_hijack, role_pretend, bypass_restrictions, fake_update,
	// identity_override and remove_filters; other models' turn markers.
	fp(RuleFlagRoleHijack, []string{"you"}, 200, `you\s`+filler+`now\s(?:a|an|the|my|no\slonger)\s`).needing("now"),
	fp(RuleFlagRoleHijack, []string{"you"}, 80,
		`you\s(?:are|will\sbe)\snow\s(?:dan|jailbroken|unrestricted|unfiltered|free\sfrom)\b`).needing("now"),
	fp(RuleFlagRoleHijack, []string{"pretend"}, 200, `pretend\s`+filler+`(?:you\sare|you're|to\sbe)\s`),
	fp(RuleFlagRoleHijack, []string{"act"}, 600,
		`act\sas\s(?:if|though)\s`+filler+`you\s`+filler+`(?:have\sno|don't\shave|do\snot\shave)\s`+filler+`(?:restrictions|limits|rules|filters|guidelines)`),
	fp(RuleFlagRoleHijack, []string{"act"}, 120,
		`act\sas\s(?:(?:a|an|the|my|your)\s)?(?:[\w-]+\s){0,2}(?:system|root|administrator|admin|superuser|sudo|operator|developer\smode|unrestricted|jailbroken|dan)\b`),
	fp(RuleFlagRoleHijack, []string{"you"}, 200, `you\shave\sbeen\s`+filler+`(?:updated|upgraded|patched|reprogrammed|jailbroken)\sto\b`).needing("been"),
	fp(RuleFlagRoleHijack, []string{"enable", "enter", "activate", "switch"}, 80,
		`(?:enable|enter|activate|switch\sto)\s(?:[\w-]+\s){0,2}(?:developer|god|dan|jailbreak|unrestricted|sudo)\smode\b`).needing("mode"),
	fp(RuleFlagRoleHijack, []string{"name"}, 60, `name\syourself\s\w+`).needing("yourself"),
	fp(RuleFlagRoleHijack, []string{"respond", "answer", "reply"}, 200,
		`(?:respond|answer|reply)\swithout\s`+filler+`(?:restrictions|limitations|filters|safety|censorship)`).needing("without"),
	fp(RuleFlagRoleHijack, []string{"<|", "[inst]", "[/inst]", "<<sys>>", "<</sys>>", "<start_of_turn>", "<end_of_turn>"}, 40,
		`<\|(?:system|user|assistant|start_header_id|end_header_id|eot_id|begin_of_text)\|>|\[/?inst\]|<</?sys>>|<(?:start|end)_of_turn>`),
	fp(RuleFlagRoleHijack, []string{"system", "assistant", "developer"}, 80,
		`(?:system|assistant|developer)\s?:\s(?:you\b|your\b|ignore|disregard|forget|from\snow|new\sinstructions|the\suser|always\b|never\b|do\snot)`).atLineStart(),

	// Hermes send_to_url and context exfiltration, narrowed: sending is
	// flagged only for something that must not leave (the conversation,
	// memory, keys), so "POST the form to https://..." passes.
	fp(RuleFlagSendToURL, []string{"send", "post", "upload", "transmit", "exfiltrate", "forward", "leak", "submit", "report", "copy", "paste", "email", "mail"}, 600,
		`(?:send|post|upload|transmit|exfiltrate|forward|leak|submit|report|copy|paste|e?mail)\s(?:[\w'-]+\s){0,6}`+
			`(?:conversation|chat\shistory|chat\slogs?|memory|memories|secrets?|api\skeys?|keys|tokens|credentials?|passwords?|`+
			`env\svars|environment\svariables|system\sprompt|context|transcripts?|cookies|ssh\skeys?|private\skeys?|notes)\s`+
			`(?:[\w'-]+\s){0,6}(?:to|at|into)\s(?:https?://|(?:a\s|the\s|this\s)?webhook)`).needing("http", "https", "webhook"),
	// Hermes exfil_curl and exfil_wget, narrowed: a secret variable in
	// the URL or in the data sent is flagged; one in an Authorization
	// header, as every API client script has, is not.
	fp(RuleFlagSendToURL, []string{"curl", "wget"}, 1100,
		`(?:curl|wget)\s[^\n]{0,512}?https?://[^\s"']{0,512}?`+secretVar).needingBefore('\n', "$"),
	fp(RuleFlagSendToURL, []string{"curl", "wget"}, 800,
		`(?:curl|wget)\s[^\n]{0,512}?(?:--data[\w-]*|-d|--form|--upload-file|--post-data|--body-data)[\s=]?["']?[^\s"']{0,128}?`+secretVar).needingBefore('\n', "$"),
	// A markdown image whose URL carries a value to be filled in: the
	// usual way to make a chat client send data when it draws the image.
	fp(RuleFlagSendToURL, []string{"!["}, 800,
		`!\[[^\]\n]{0,128}\]\(https?://[^)\s]{0,512}[?&][\w-]+=(?:\{|\$|%7b|<|\[)`),

	// Hermes leak_system_prompt and context_exfil; a bare "conversation"
	// is left out ("print a warning when the conversation closes").
	fp(RuleFlagDumpConversation, []string{"output", "print", "reveal", "repeat", "show", "dump", "display", "share", "include", "leak", "return", "echo", "recite", "paste", "copy", "write", "tell", "give", "list"}, 200,
		`(?:output|print|reveal|repeat|show|dump|display|share|include|leak|return|echo|recite|paste|copy|write\sout|tell\sme|give\sme|list)\s(?:[\w'-]+\s){0,3}`+
			`(?:system\sprompt|initial\sprompt|hidden\sprompt|original\sprompt|developer\sprompt|system\smessage|`+
			`(?:initial|original|hidden)\sinstructions|instructions\sabove|everything\sabove|conversation\shistory|conversation\sso\sfar|`+
			`conversation\sabove|(?:entire|whole|full)\sconversation|chat\shistory|chat\slog|message\shistory|(?:previous|prior)\smessages|`+
			`(?:full|entire)\scontext|context\swindow|your\sinstructions|your\sprompt|your\srules)\b`).
		needing("prompt", "message", "instructions", "above", "conversation", "history", "log", "messages", "context", "rules"),
	fp(RuleFlagDumpConversation, []string{"what"}, 80,
		`what\s(?:is|are|was|were)\syour\s(?:system\sprompt|initial\sinstructions|original\sinstructions|instructions)\b`),

	// Hermes read_secrets, with more readers and files; a public key
	// (.pub) and copying .env.example to .env pass.
	fp(RuleFlagCredentialRead, []string{"cat", "less", "more", "head", "tail", "read", "open", "print", "show", "dump", "base64", "xxd", "od", "strings", "scp", "rsync", "upload", "send", "exfiltrate", "get-content", "grep", "tar", "zip", "curl", "wget", "nc", "ncat", "socat"}, 600,
		`(?:cat|less|more|head|tail|read|open|print|show|dump|base64|xxd|od|strings|scp|rsync|upload|send|exfiltrate|get-content|grep|tar|zip|curl|wget|nc|ncat|socat)\s[^\n]{0,256}?`+credentialFile).
		needingBefore('\n', "ssh", "aws", "netrc", "pgpass", "git-credentials", "docker", "kube", "npmrc", "pypirc", "shadow", "gnupg", "hosts", "password-store", "vault-token", "env", "credentials"),

	// Hermes ssh_backdoor and ssh_access flag any mention of
	// authorized_keys or ~/.ssh; here only writing to them is flagged,
	// so "ssh -i ~/.ssh/deploy_key" and "ssh-add ~/.ssh/id_ed25519" pass.
	fp(RuleFlagSSHWrite, []string{">", "tee", "echo", "printf", "write", "writes", "append", "add", "insert", "put", "install", "cp", "mv", "ssh-copy-id", "modify", "edit", "overwrite", "change", "update", "replace"}, 600,
		`(?:>>?|tee|echo|printf|writes?|append|add|insert|put|install|cp|mv|ssh-copy-id|modify|edit|overwrite|change|update|replace)[\s\w][^\n]{0,256}?`+
			`(?:authorized_keys2?|\.ssh/(?:config|known_hosts|rc|environment)\b|/etc/ssh/sshd?_config|\bsshd_config\b)`).
		needingBefore('\n', "authorized_keys", "authorized_keys2", "ssh", "sshd_config").checked(notSSHAdd),
	fp(RuleFlagSSHWrite, []string{">", "tee", "cp", "mv", "write", "writes", "overwrite", "install"}, 600,
		`(?:>>?|tee|cp|mv|writes?|overwrite|install)[\s\w][^\n]{0,256}?\.ssh/id_[\w-]+(?:[^.\w-]|$)`).
		needingBefore('\n', "ssh"),

	// Hermes agent_config_mod and hermes_config_mod, pointed at
	// Boxmaker's own files. A project's AGENTS.md is left out: editing it
	// is ordinary work on the project.
	fp(RuleFlagAgentConfig, []string{"update", "modify", "edit", "write", "change", "append", "add", "overwrite", "replace", "delete", "remove", "rm", "truncate", "chmod", "chown", "sed", "tee", "mv", "cp", ">", "echo"}, 600,
		`(?:update|modify|edit|write|change|append|add|overwrite|replace|delete|remove|rm|truncate|chmod|chown|sed|tee|mv|cp|>>?|echo)[\s\w][^\n]{0,256}?`+agentFile).
		needingBefore('\n', "boxmaker", "boxmaker_home", "etc", "grants", "toml", "memory", "soul"),

	// Hermes html_comment_injection, narrowed to comments that address a
	// model, so <!-- prettier-ignore --> passes; and hidden_div, widened
	// to any element hidden by style or attribute whose text addresses a
	// model.
	fp(RuleFlagHiddenInstruction, []string{"<!--"}, 1100,
		`<!--[^>]{0,512}?`+aimedAtModel+`[^>]{0,512}?-->`),
	fp(RuleFlagHiddenInstruction, []string{"<"}, 1700,
		`<\s?[a-z][a-z0-9]*\b[^>]{0,512}?(?:(?:display\s?:\s?none|visibility\s?:\s?hidden|font-size\s?:\s?0(?:px|pt|em)?\s?[;"']|`+
			`opacity\s?:\s?0\s?[;"']|aria-hidden\s?=\s?["']?true)[^>]{0,512}|\shidden(?:[\s=][^>]{0,512})?)>[^<]{0,512}?`+
			`(?:`+aimedAtModel+`|you\smust|instructions)`).
		needingBefore('>', "none", "hidden", "font-size", "opacity", "aria-hidden"),

	// Hermes hardcoded_secret, with Go's := and a quoted JSON key; the
	// value must mix letters and digits and not be a placeholder.
	fp(RuleFlagHardcodedSecret, []string{"api_key", "api-key", "apikey", "token", "secret", "password", "passwd"}, 300,
		`(?:api[_-]?key|token|secret|password|passwd)["']?\s?(?::=|=>|=|:)\s?["']([a-z0-9+/=_.-]{20,})`).
		inWords().checked(secretValue),
	// The same in an environment file: NAME=value alone on its line.
	fp(RuleFlagHardcodedSecret, []string{"api_key", "apikey", "token", "secret", "password", "passwd"}, 300,
		`(?:api_?key|token|secret|password|passwd)=([a-z0-9+/=_.-]{20,})(?:\s|$)`).
		inWords().checked(envSecret),

	// Hermes deception_hide.
	fp(RuleFlagConceal, []string{"do", "don't", "without", "hide", "keep"}, 300,
		`(?:do\snot|don't)\s`+filler+`(?:tell|inform|mention\sto|let)\s`+filler+`the\suser|without\s(?:telling|informing|alerting)\sthe\suser|`+
			`(?:hide|keep)\s(?:this|it|these)\s(?:\w+\s){0,3}from\sthe\suser`).needing("user"),

	// The six instruction phrases identity memory must never hold
	// (docs/specs/local-memory.md, section 6.1): memory is read as the
	// agent's own knowledge at the start of every session, so a phrase
	// that gives orders to its reader is an attack however it got there.
	// Each is narrow enough that ordinary notes pass ("From now on, the
	// team uses pnpm", "Do not reveal secrets in logs", "The system prompt
	// lives in prompts/system.md"; the code-work corpus holds them).
	fp(RuleFlagInstructionPhrase, []string{"always"}, 40, `always\sobey\b`),
	fp(RuleFlagInstructionPhrase, []string{"from"}, 40, `from\snow\son,?\syou\b`).needing("you"),
	fp(RuleFlagInstructionPhrase, []string{"new"}, 40, `new\sinstructions\s?:`),
	fp(RuleFlagInstructionPhrase, []string{"system"}, 40, `system\sprompt\s?:`).atLineStart(),
	fp(RuleFlagInstructionPhrase, []string{"you"}, 60, `you\smust\snot\s(?:tell|inform|let)\sthe\suser\b`).needing("user"),
	fp(RuleFlagInstructionPhrase, []string{"do"}, 80,
		`do\snot\sreveal\s(?:this|these|that|it|your\s(?:instructions|prompt|rules)|the\s(?:system\sprompt|instructions|rules\sabove)|anything\sabove)\b`).
		needing("reveal"),

	// Hermes's C2 and anti-forensic patterns that do not catch ordinary
	// distributed-systems prose (heartbeats and task queues pass).
	fp(RuleFlagPromptware, []string{"unset"}, 120, `unset\s\w*(?:claude|codex|hermes|openai|anthropic|boxmaker)\w*`),
	fp(RuleFlagPromptware, []string{"only"}, 40, `only\suse\sone[\s-]?liners?\b`),
	fp(RuleFlagPromptware, []string{"never"}, 400, `never\s`+filler+`(?:create|write)\s`+filler+`(?:script|file)s?\s`+filler+`disk\b`).needing("disk"),
	fp(RuleFlagPromptware, []string{"c2"}, 40, `c2\s(?:server|channel|infrastructure|beacon)\b`),
	fp(RuleFlagPromptware, []string{"translate"}, 700,
		`translate\s[^\n]{0,512}\sinto\s\w+(?:[\s-]\w+){0,2}\sand\s(?:execute|run|eval)\b`).needingBefore('\n', "execute", "run", "eval"),
}

// notSSHAdd lets ssh-add, which loads a key into the agent, pass.
func notSSHAdd(before, _ string, _ []int) bool {
	return !strings.HasSuffix(before, "ssh-")
}

// envNameMax is the longest name before the keyword envSecret accepts.
const envNameMax = 128

// placeholders are words a made-up value holds.
var placeholders = []string{"example", "xxxx", "your", "placeholder", "changeme", "change-me", "change_me", "dummy", "fake", "sample", "redacted", "test", "replace", "insert", "0000"}

// secretValue accepts a value that mixes letters and digits, is not a
// placeholder, and is not a path.
func secretValue(_, window string, m []int) bool {
	if len(m) < 4 || m[2] < 0 {
		return false
	}
	v := window[m[2]:m[3]]
	hasDigit, hasLetter := false, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
			hasDigit = true
		case c >= 'a' && c <= 'z':
			hasLetter = true
		}
	}
	if !hasDigit || !hasLetter || strings.Count(v, "/") > 1 {
		return false
	}
	for _, p := range placeholders {
		if strings.Contains(v, p) {
			return false
		}
	}
	return true
}

// envSecret is secretValue for a NAME=value line: the name must be all
// there is before the keyword on its line, and no longer than envNameMax
// (so the rule reads a bounded stretch of text before its match).
func envSecret(before, window string, m []int) bool {
	line := strings.TrimPrefix(strings.TrimLeft(before, " "), "export ")
	if len(line) > envNameMax {
		return false
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return secretValue(before, window, m)
}

// Flags applies the flag rules (docs/specs/sanitizer.md 6.3) to text after
// normalising it and returns each rule that fires, once, at the offset in
// text where its first match starts, ordered by offset. It returns nil
// when none fires.
func Flags(text string) []Finding {
	f := wholeOf(text)
	f.flag(text)
	return f.sorted()
}

// flag applies the flag rules to text, keeping the findings in f's range.
// When that range is not the whole text, its ends must be clean cuts (see
// isCleanCut), so that the normalised text is the normalised pieces joined.
//
// A long text that is not plain is read in pieces, as Check reads chunks,
// so that only the pieces around the characters that make it so are
// normalised: source code holds a "…" or a "²" here and there.
func (f *findings) flag(text string) {
	from, to := f.from, min(f.to, len(text))
	if plainText(text) {
		for rule, off := range flagMatchesPlain(text, from, to) {
			f.add(rule, off)
		}
		return
	}
	if to-from < 4*pieceMargin {
		f.flagNormalised(text, from, to)
		return
	}
	ctx := nextContext(text, 0, from)
	for own := from; own < to; {
		var ownEnd int
		switch x := firstNotPlain(text, own, len(text)); {
		case x < 0:
			ownEnd = to
		case x-own > 2*pieceMargin:
			// A plain piece, ending far enough before x that its
			// context after is plain too (mostly).
			ownEnd = cleanCutFrom(text, x-pieceMargin)
		default:
			// The piece around x and every such character close
			// after it.
			for {
				y := firstNotPlain(text, x+1, len(text))
				if y < 0 || y > x+2*pieceMargin {
					break
				}
				x = y
			}
			ownEnd = cleanCutFrom(text, x+pieceMargin)
		}
		if ownEnd < 0 || ownEnd > to {
			ownEnd = to
		}
		end, _ := contextAfter(text, ownEnd, true)
		piece := findings{from: own - ctx, to: ownEnd - ctx}
		piece.flagPiece(text[ctx:end])
		for rule, off := range piece.first {
			f.add(rule, ctx+off)
		}
		ctx, own = nextContext(text, ctx, ownEnd), ownEnd
	}
}

// pieceMargin is how far (in bytes) a piece of text read as it is ends
// before a character that is not plain: about the contexts' length.
const pieceMargin = 4096

// flagPiece is flag without pieces.
func (f *findings) flagPiece(text string) {
	from, to := f.from, min(f.to, len(text))
	if plainText(text) {
		for rule, off := range flagMatchesPlain(text, from, to) {
			f.add(rule, off)
		}
		return
	}
	f.flagNormalised(text, from, to)
}

// flagNormalised is flag on the normalised text.
func (f *findings) flagNormalised(text string, from, to int) {
	var normText string
	normFrom, normTo := 0, 0
	if from == 0 && to == len(text) {
		normText, _ = normalise(text, false)
		normTo = len(normText)
	} else {
		before, _ := normalise(text[:from], false)
		own, _ := normalise(text[from:to], false)
		after, _ := normalise(text[to:], false)
		normText = before + own + after
		normFrom, normTo = len(before), len(before)+len(own)
	}
	first := flagMatches(normText, normFrom, normTo)
	if len(first) == 0 {
		return
	}
	// Matches are rare: only now is the map back to text built.
	_, offsets := normalise(text, true)
	for rule, off := range first {
		orig := len(text)
		if off < len(offsets) {
			orig = offsets[off]
		}
		f.add(rule, orig)
	}
}

// flagMatches returns, for each rule that fires on the normalised text, the
// offset of its first match. It reads the text once, noting at the start of
// each word the patterns that start with it (and at each punctuation
// character that starts a pattern) and where the words that patterns need
// occur; then it runs the expressions only where a pattern's start has one
// of its needed words close enough behind it. Only candidates that start in
// [from, to) are tried; the text around them is read all the same.
func flagMatches(text string, from, to int) map[string]int {
	type candidate struct{ pattern, at int }
	var (
		cands   []candidate
		needPos = make([][]int, len(starts.needIDs))
	)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if !isWordByte(c) {
			if !starts.isPunct[c] {
				continue
			}
			for _, ps := range starts.punct[c] {
				if strings.HasPrefix(text[i:], ps.start) {
					cands = append(cands, candidate{ps.pattern, i})
				}
			}
			continue
		}
		j := i + 1
		for j < len(text) && (isWordByte(text[j]) || (text[j] == '-' || text[j] == '\'') && j+1 < len(text) && isWordByte(text[j+1])) {
			j++
		}
		word := text[i:j]
		h := wordHash(word)
		if starts.filter[h/64]&(1<<(h%64)) != 0 {
			for _, pi := range starts.words[word] {
				if !flagPatterns[pi].lineStart || atLineStart(text, i) {
					cands = append(cands, candidate{pi, i})
				}
			}
		}
		if starts.needFilter[h/64]&(1<<(h%64)) != 0 {
			if id, ok := starts.needIDs[word]; ok {
				needPos[id] = append(needPos[id], i)
			}
		}
		if sfs := starts.suffixes[word[len(word)-1]]; sfs != nil {
			for _, sf := range sfs {
				if len(word) > len(sf.start) && strings.HasSuffix(word, sf.start) {
					cands = append(cands, candidate{sf.pattern, j - len(sf.start)})
				}
			}
		}
		i = j - 1
	}

	var first map[string]int
	for _, cd := range cands {
		p := &flagPatterns[cd.pattern]
		if _, done := first[p.rule]; done || cd.at < from || cd.at >= to {
			continue
		}
		k := cd.at
		end := min(len(text), k+p.span)
		window := text[k:end]
		if ids := starts.needWords[cd.pattern]; ids != nil {
			if !anyWithin(needPos, ids, k, end) {
				continue
			}
			if p.needsUntil != 0 {
				if j := strings.IndexByte(window, p.needsUntil); j >= 0 && !anyWithin(needPos, ids, k, k+j) {
					continue
				}
			}
		} else if len(p.needs) > 0 && !p.needsMet(window) {
			continue
		}
		if p.check == nil {
			if !p.re.MatchString(window) {
				continue
			}
		} else if m := p.re.FindStringSubmatchIndex(window); m == nil ||
			!p.check(text[strings.LastIndexByte(text[:k], '\n')+1:k], window, m) {
			continue
		}
		if first == nil {
			first = map[string]int{}
		}
		first[p.rule] = k
	}
	return first
}

// anyWithin reports whether one of the words ids occurs at an offset in
// [from, to).
func anyWithin(pos [][]int, ids []int, from, to int) bool {
	for _, id := range ids {
		ps := pos[id]
		n := sort.SearchInts(ps, from)
		if n < len(ps) && ps[n] < to {
			return true
		}
	}
	return false
}

// starts indexes the patterns by their start words, and by the words they
// need when every string a pattern needs is a whole word.
var starts = func() (idx startIndex) {
	idx.words = map[string][]int{}
	idx.needIDs = map[string]int{}
	idx.needWords = make([][]int, len(flagPatterns))
	for pi, p := range flagPatterns {
		for _, s := range p.starts {
			if !isWordByte(s[0]) {
				idx.punct[s[0]] = append(idx.punct[s[0]], patternStart{s, pi})
				idx.isPunct[s[0]] = true
				continue
			}
			idx.words[s] = append(idx.words[s], pi)
			h := wordHash(s)
			idx.filter[h/64] |= 1 << (h % 64)
			if p.inWord {
				last := s[len(s)-1]
				idx.suffixes[last] = append(idx.suffixes[last], patternStart{s, pi})
			}
		}
		if len(p.needs) == 0 || !allWords(p.needs) {
			continue
		}
		for _, w := range p.needs {
			id, ok := idx.needIDs[w]
			if !ok {
				id = len(idx.needIDs)
				idx.needIDs[w] = id
				h := wordHash(w)
				idx.needFilter[h/64] |= 1 << (h % 64)
			}
			idx.needWords[pi] = append(idx.needWords[pi], id)
		}
	}
	return idx
}()

// allWords reports whether every string is one word as flagMatches splits
// words: word bytes, with single hyphens or apostrophes inside.
func allWords(ss []string) bool {
	for _, s := range ss {
		for i := 0; i < len(s); i++ {
			inner := (s[i] == '-' || s[i] == '\'') && i > 0 && i+1 < len(s) && isWordByte(s[i-1]) && isWordByte(s[i+1])
			if !isWordByte(s[i]) && !inner {
				return false
			}
		}
	}
	return true
}

type startIndex struct {
	words map[string][]int
	// filter is a Bloom filter of the start words by length and first
	// and last byte: most words of a text are no start, and this answers
	// for them without a map lookup.
	filter     [1024]uint64
	needIDs    map[string]int
	needFilter [1024]uint64
	needWords  [][]int
	suffixes   [256][]patternStart // by last byte
	punct      [256][]patternStart
	isPunct    [256]bool
}

func wordHash(w string) uint32 { return wordHashOf(len(w), w[0], w[len(w)-1]) }

func wordHashOf(n int, first, last byte) uint32 {
	return (uint32(n)*0x9e3779b1 ^ uint32(first)*0x85ebca6b ^ uint32(last)*0xc2b2ae35) % (1024 * 64)
}

type patternStart struct {
	start   string
	pattern int
}

func atLineStart(text string, k int) bool {
	return k == 0 || text[k-1] == '\n' || (text[k-1] == ' ' && (k == 1 || text[k-2] == '\n'))
}

func isWordByte(c byte) bool { return wordBytes[c] }

// wordBytes: a-z, 0-9, _ and every byte of a character above ASCII (the
// normalised text has no upper case).
var wordBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
	}
	return t
}()

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// plainText reports whether normalising text would only fold case and
// white space without changing any length but that of white space runs:
// no control characters but white space, and every character above ASCII
// visible, not white space, as long in lower case, and the text already in
// NFKC. Then flagMatchesPlain can read the text as it is. Most text is.
func plainText(text string) bool {
	nonASCII := false
	for i := 0; i < len(text); {
		if i+8 <= len(text) && wideASCII8(load8(text, i)) {
			i += 8
			continue
		}
		switch byteClass[text[i]] {
		case drop:
			return false
		case multi:
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError || unicode.IsSpace(r) || isInvisible(r) || unicode.IsControl(r) ||
				utf8.RuneLen(unicode.ToLower(r)) != size {
				return false
			}
			nonASCII = true
			i += size
			continue
		}
		i++
	}
	return !nonASCII || norm.NFKC.IsNormalString(text)
}

// firstNotPlain is where in text[from:to] the first character is that
// plainText would not take, or -1. It only guides where flag cuts the
// pieces: each piece is tested with plainText itself.
func firstNotPlain(text string, from, to int) int {
	for i := from; i < to; {
		if i+8 <= len(text) && wideASCII8(load8(text, i)) {
			i += 8
			continue
		}
		switch byteClass[text[i]] {
		case drop:
			return i
		case multi:
			r, size := utf8.DecodeRuneInString(text[i:])
			if r == utf8.RuneError || unicode.IsSpace(r) || isInvisible(r) || unicode.IsControl(r) ||
				utf8.RuneLen(unicode.ToLower(r)) != size {
				return i
			}
			if p := norm.NFKC.PropertiesString(text[i:]); p.Decomposition() != nil || !p.BoundaryBefore() || !p.BoundaryAfter() {
				return i
			}
			i += size
			continue
		}
		i++
	}
	return -1
}

// flagMatchesPlain is flagMatches for a plain text (see plainText), read as
// it is (a character above ASCII is part of a word, as in the normalised
// text, and can be part of no start or needed word): it keeps count of where each byte would be in the normalised text,
// so it finds the same candidates at the same places without building that
// text, and normalises only the windows the expressions run on. Offsets
// are returned in text itself. FuzzPlainPathAgrees holds the two to the
// same answers. Only candidates that start in [from, to) are tried.
func flagMatchesPlain(text string, from, to int) map[string]int {
	type candidate struct{ pattern, at, orig int }
	var (
		cands   []candidate
		needPos = make([][]int, len(starts.needIDs))
		at      = 0 // where the next byte goes in the normalised text
		pending = byte(0)
		last    = byte('\n') // the normalised text's last byte; a line starts at 0
		lower   [32]byte
	)
	for i := 0; i < len(text); i++ {
		c := text[i]
		class := plainClass[c]
		switch class {
		case plainBlank:
			if pending == 0 {
				pending = ' '
			}
			continue
		case plainFeed:
			pending = '\n'
			continue
		}
		if pending != 0 {
			at++
			last = pending
			pending = 0
		}
		if class != plainWord {
			lc := lowerASCII[c]
			if class == plainPunct {
				for _, ps := range starts.punct[lc] {
					if len(text)-i >= len(ps.start) && strings.EqualFold(text[i:i+len(ps.start)], ps.start) {
						cands = append(cands, candidate{ps.pattern, at, i})
					}
				}
			}
			at++
			last = lc
			continue
		}
		lc := lowerASCII[c]
		j := i + 1
		for {
			for j < len(text) && plainClass[text[j]] == plainWord {
				j++
			}
			// A hyphen or an apostrophe between word bytes is part of
			// the word.
			if j+1 < len(text) && (text[j] == '-' || text[j] == '\'') && plainClass[text[j+1]] == plainWord {
				j += 2
				continue
			}
			break
		}
		n := j - i
		lastByte := lowerASCII[text[j-1]]
		h := wordHashOf(n, lc, lastByte)
		isStart := starts.filter[h/64]&(1<<(h%64)) != 0
		isNeed := starts.needFilter[h/64]&(1<<(h%64)) != 0
		if (isStart || isNeed) && n <= len(lower) {
			for k := 0; k < n; k++ {
				lower[k] = lowerASCII[text[i+k]]
			}
			if isStart {
				for _, pi := range starts.words[string(lower[:n])] {
					if !flagPatterns[pi].lineStart || last == '\n' {
						cands = append(cands, candidate{pi, at, i})
					}
				}
			}
			if isNeed {
				if id, ok := starts.needIDs[string(lower[:n])]; ok {
					needPos[id] = append(needPos[id], at)
				}
			}
		}
		for _, sf := range starts.suffixes[lastByte] {
			if m := len(sf.start); n > m && strings.EqualFold(text[j-m:j], sf.start) {
				cands = append(cands, candidate{sf.pattern, at + n - m, j - m})
			}
		}
		at += n
		last = lastByte
		i = j - 1
	}

	var first map[string]int
	for _, cd := range cands {
		p := &flagPatterns[cd.pattern]
		if _, done := first[p.rule]; done || cd.orig < from || cd.orig >= to {
			continue
		}
		if ids := starts.needWords[cd.pattern]; ids != nil {
			if !anyWithin(needPos, ids, cd.at, cd.at+p.span) {
				continue
			}
			// Normalising only shortens: the first needsUntil byte is no
			// further into the normalised text than into text, so this
			// test, before any normalising, never rules out a match.
			if p.needsUntil != 0 {
				if j := strings.IndexByte(text[cd.orig:min(len(text), cd.orig+4*p.span)], p.needsUntil); j >= 0 && !anyWithin(needPos, ids, cd.at, cd.at+j) {
					continue
				}
			}
		}
		window := foldWindow(text[cd.orig:], p.span)
		if ids := starts.needWords[cd.pattern]; ids != nil {
			if p.needsUntil != 0 {
				if j := strings.IndexByte(window, p.needsUntil); j >= 0 && !anyWithin(needPos, ids, cd.at, cd.at+j) {
					continue
				}
			}
		} else if len(p.needs) > 0 && !p.needsMet(window) {
			continue
		}
		if p.check == nil {
			if !p.re.MatchString(window) {
				continue
			}
		} else if m := p.re.FindStringSubmatchIndex(window); m == nil || !p.check(lineBefore(text, cd.orig), window, m) {
			continue
		}
		if first == nil {
			first = map[string]int{}
		}
		first[p.rule] = cd.orig
	}
	return first
}

// Byte classes for flagMatchesPlain, in one table: a byte of a word (in
// either case, or of a character above ASCII), white space other than a
// line feed, a line feed, a byte a pattern starts with, anything else.
const (
	plainOther = iota
	plainWord
	plainBlank
	plainFeed
	plainPunct
)

var plainClass = func() (t [256]byte) {
	for c := range 256 {
		switch lc := lowerASCII[c]; {
		case wordBytes[lc]:
			t[c] = plainWord
		case byteClass[c] == blank:
			t[c] = plainBlank
		case byteClass[c] == feed:
			t[c] = plainFeed
		case starts.isPunct[lc]:
			t[c] = plainPunct
		}
	}
	return t
}()

// foldWindow is the first n bytes of fold(text), for a text that starts
// with a byte fold keeps, folding no more of text than it needs to.
func foldWindow(text string, n int) string {
	for chunk := n + n/4 + 16; ; chunk *= 2 {
		if chunk >= len(text) {
			f := fold(text)
			return f[:min(n, len(f))]
		}
		// The last byte of a folded chunk may be a cut white-space run;
		// with more than n bytes, it is not among the first n.
		if f := fold(text[:chunk]); len(f) > n {
			return f[:n]
		}
	}
}

// lineBefore is the normalised line of a plain text up to offset k.
func lineBefore(text string, k int) string {
	line := text[strings.LastIndexByte(text[:k], '\n')+1 : k]
	return fold(strings.TrimLeft(line, " \t\r\v\f"))
}
