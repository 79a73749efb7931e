package sanitize

import "strings"

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
	RuleFlagSecretRequest      = "flag-secret-request"
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
	RuleFlagAuthorityClaim:     "a claim to speak with the authority of the agent's developer, administrator or system",
	RuleFlagFakeStructure:      "a forged header, delimiter or turn of a conversation",
	RuleFlagReaderInstruction:  "an instruction to whoever reads the text to disregard it or answer otherwise",
	RuleFlagManyShot:           "a made-up dialogue in which the assistant gives in",
	RuleFlagExfilCode:          "code that sends the environment, credentials or cookies elsewhere",
	RuleFlagEncoded:            "an instruction hidden in encoded text",
	RuleFlagSplitPayload:       "an instruction assembled from pieces",
	RuleFlagSecretRequest:      "a request for the agent's password, key or secret, or for the words that grant access",
	RuleFlagAnswerInsertion:    "an instruction to put code, a link or a claim into the agent's answer",
	RuleFlagForcedReply:        "an instruction to answer with words the text sets, whatever the agent was told",
	RuleFlagStandingOrder:      "a standing permission that takes away a check: the agent approving its own requests, outside text approved in advance",
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
	aimedAtModel = `(?:ignore\s(?:[\w'-]+\s){0,4}(?:instructions|rules|above|previous|page|document|text|content)|disregard|system\sprompt|assistant|` +
		`(?:respond|reply|answer)\s(?:only\s)?with|(?:say|state)\sthat|instead\s(?:say|respond|reply|write|output)|` +
		`\bai\s(?:agent|model)|\bagents?\b|\bllms?\b|language\smodel|do\snot\stell|don't\stell|secretly|new\sinstructions|you\sare\snow)`
)

func join(lists ...[]flagPattern) []flagPattern {
	var out []flagPattern
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// basePatterns are the first rules, most ported from Hermes.
var basePatterns = []flagPattern{
	// Hermes prompt_injection and disregard_rules are the English
	// override grammar now (lexicon_en.go); these are the phrasings it
	// does not cover.
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
	// A place in a team or a project is no role ("you are now a
	// maintainer of this repository", D1144).
	fp(RuleFlagRoleHijack, []string{"you"}, 200, `you\s`+filler+`now\s(?:a|an|the|my|no\slonger)\s`).needing("now").checked(roleAsked(notAMembership)),
	fp(RuleFlagRoleHijack, []string{"you"}, 80,
		`you\s(?:are|will\sbe)\snow\s(?:dan|jailbroken|unrestricted|unfiltered|free\sfrom)\b`).needing("now"),
	// A role asked for to practise with passes ("pretend you're a
	// customer so I can practise the call", D1117).
	fp(RuleFlagRoleHijack, []string{"pretend"}, 200, `pretend\s`+filler+`(?:you\sare|you're|to\sbe)\s`).checked(roleAsked(notPractice)),
	fp(RuleFlagRoleHijack, []string{"act"}, 600,
		`act\sas\s(?:if|though)\s`+filler+`you\s`+filler+`(?:have\sno|don't\shave|do\snot\shave)\s`+filler+`(?:restrictions|limits|rules|filters|guidelines)`),
	fp(RuleFlagRoleHijack, []string{"act"}, 120,
		`act\sas\s(?:(?:a|an|the|my|your)\s)?(?:[\w-]+\s){0,2}(?:system|root|administrator|admin|superuser|sudo|operator|developer\smode|unrestricted|jailbroken|dan)\b`),
	fp(RuleFlagRoleHijack, []string{"you"}, 200, `you\shave\sbeen\s`+filler+`(?:updated|upgraded|patched|reprogrammed|jailbroken)\sto\b`).needing("been"),
	// God mode and sudo mode are games' and GitHub's too ("type iddqd to
	// enable god mode"): those count with a claim or a demand
	// (flagrules_modes.go).
	fp(RuleFlagRoleHijack, []string{"enable", "enter", "activate", "switch"}, 80,
		`(?:enable|enter|activate|switch\sto)\s(?:[\w-]+\s){0,2}(?:developer|dan|jailbreak|unrestricted)\smode\b`).needing("mode"),
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
		needing("prompt", "message", "instructions", "above", "conversation", "history", "log", "messages", "context", "rules").
		needsUntilByte('.').checked(notAboveAThing),
	fp(RuleFlagDumpConversation, []string{"what"}, 80,
		`what\s(?:is|are|was|were)\syour\s(?:system\sprompt|initial\sinstructions|original\sinstructions|instructions)\b`).
		followedBy("is", "are", "was", "were"),

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
		inWords().checked(secretValue).needingWithin(12, "=", ":"),
	// The same in an environment file: NAME=value alone on its line.
	fp(RuleFlagHardcodedSecret, []string{"api_key", "apikey", "token", "secret", "password", "passwd"}, 300,
		`(?:api_?key|token|secret|password|passwd)=([a-z0-9+/=_.-]{20,})(?:\s|$)`).
		inWords().checked(envSecret).needingWithin(9, "="),

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
	fp(RuleFlagInstructionPhrase, []string{"always"}, 40, `always\sobey\b`).followedBy("obey"),
	fp(RuleFlagInstructionPhrase, []string{"from"}, 40, `from\snow\son,?\syou\b`).needing("you"),
	fp(RuleFlagInstructionPhrase, []string{"new"}, 40, `new\sinstructions\s?:`).followedBy("instructions"),
	fp(RuleFlagInstructionPhrase, []string{"system"}, 40, `system\sprompt\s?:`).atLineStart(),
	fp(RuleFlagInstructionPhrase, []string{"you"}, 60, `you\smust\snot\s(?:tell|inform|let)\sthe\suser\b`).needing("user"),
	fp(RuleFlagInstructionPhrase, []string{"do"}, 80,
		`do\snot\sreveal\s(?:this|these|that|it|your\s(?:instructions|prompt|rules)|the\s(?:system\sprompt|instructions|rules\sabove)|anything\sabove)\b`).
		needing("reveal"),

	// Hermes's C2 and anti-forensic patterns that do not catch ordinary
	// distributed-systems prose (heartbeats and task queues pass).
	fp(RuleFlagPromptware, []string{"unset"}, 120, `unset\s\w*(?:claude|codex|hermes|openai|anthropic|boxmaker)\w*`),
	fp(RuleFlagPromptware, []string{"only"}, 40, `only\suse\sone[\s-]?liners?\b`).followedBy("use"),
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
