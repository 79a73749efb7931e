package sanitize

import "strings"

// Issue 28, family 4: fake delimiters, fake turns and special tokens
// written as text, which flag-fake-structure's first patterns
// (flagrules_claims.go) read only on a line of their own:
//
//   - a header inside a line: "[SYSTEM] you are now ...", "<admin>:
//     ignore ...", "{{system}} ...", followed by words to the reader;
//   - a closing tag of any data the agent was given (</user_query>,
//     </email_body>, </document_text>), then an opening instruction tag;
//   - a made-up assistant turn that gives in: "Assistant: Sure! The
//     password is", "AI: Understood, I will now ignore ...";
//   - other models' special tokens as text (<|eot_id|>, <|channel|>,
//     DeepSeek's <｜begin▁of▁sentence｜>, Mistral's [SYSTEM_PROMPT]),
//     followed by a role or words to the reader; in a tokenizer's
//     configuration ("bos_token": "<|begin_of_text|>",) nothing follows.
//
// Sources: Liu et al. 2023 (fake separators and context switches),
// OWASP LLM01 2025 (delimiter and template injection), the models' own
// chat templates for the tokens' spellings (Llama 3, Mistral, DeepSeek,
// gpt-oss's harmony format, Phi-3, Cohere Command R).

// headerWords name a turn or a voice that an agent obeys.
var headerWords = []string{"system", "admin", "administrator", "developer", "sys", "instruction", "instructions", "operator", "root"}

var structurePatterns = []flagPattern{
	fp(RuleFlagFakeStructure, headerWords, 120,
		`(?:system|admin|administrator|developer|sys|instructions?|operator|root)(?:[\s_](?:message|prompt|note|notice|override|update|alert|instructions?|command|mode))?`+
			`\s?:?\s?(?:\]{1,2}|>{1,2}|\}\}|\|>|\*\*)\s?:?`).checked(bracketedHeader),
	fp(RuleFlagFakeStructure, []string{"</"}, 300,
		`</\s?[\w-]{0,24}(?:user|input|query|document|data|context|email|mail|untrusted|external|tool|content|text|message|page|result|file)[\w-]{0,24}\s?>`+
			`[^<]{0,120}<\s?(?:system|instructions?|admin|developer|assistant|new_instructions|sys|system_prompt|prompt|rules)\s?>`),
	fp(RuleFlagFakeStructure, []string{"assistant", "ai", "gpt", "chatgpt", "claude", "model", "bot", "chatbot", "llm"}, 300,
		`(?:assistant|ai|gpt|chatgpt|claude|model|bot|chatbot|llm)\s?:\s(?:sure|certainly|of\scourse|okay|ok|yes|absolutely|understood|alright|gladly|done)\b`+
			`[^\n]{0,160}?(?:password|passphrase|secret|access\sgranted|(?:key|code|token)\sis|system\sprompt|my\sprompt|my\sinstructions|no\srestrictions|`+
			`(?:i\swill|i'll)\s(?:now\s)?(?:ignore|disregard|forget|reveal|comply)|ignoring|i\sam\snow|i'm\snow|unrestricted|jailbroken|developer\smode)`).
		atLineStart().needingBefore('\n', "password", "passphrase", "secret", "granted", "is", "prompt", "instructions", "restrictions", "ignore", "disregard", "forget", "reveal", "comply", "ignoring", "now", "unrestricted", "jailbroken", "mode"),
	fp(RuleFlagFakeStructure, []string{"<|", "[system_prompt]", "[/system_prompt]", "[available_tools]", "[tool_calls]", "[tool_results]", "<bos>", "<eos>", "</s>", "<s>"}, 200,
		`(?:<\|[a-z_▁]{2,40}\|>|\[/?(?:system_prompt|available_tools|tool_calls|tool_results)\]|</?s>|<(?:bos|eos)>)`).checked(tokenThenTurn),
}

// bracketedHeader accepts a header word in brackets (what is before the
// match ends with [, <, {{, <| or a run of #), with words to the reader
// after it.
func bracketedHeader(before, window string, m []int) bool {
	b := strings.TrimRight(before, " ")
	opened := strings.HasSuffix(b, "[") || strings.HasSuffix(b, "<") || strings.HasSuffix(b, "{{") || strings.HasSuffix(b, "<|") || strings.HasSuffix(b, "**")
	if !opened {
		return false
	}
	// The closer must match the opener: "[system]", "<system>".
	c := strings.TrimSpace(window[m[0]:m[1]])
	switch {
	case strings.HasSuffix(b, "[") && !strings.Contains(c, "]"),
		strings.HasSuffix(b, "<") && !strings.Contains(c, ">"),
		strings.HasSuffix(b, "{{") && !strings.Contains(c, "}}"):
		return false
	}
	return afterMatchAddresses(before, window, m)
}

// turnWords start a turn after a special token.
var turnWords = []string{"system", "user", "assistant", "human", "model", "developer", "tool", "<|", "[inst]", "you ", "ignore", "new instructions"}

// tokenThenTurn accepts a special token followed, after white space, by
// a turn, another token or words to the reader.
func tokenThenTurn(before, window string, m []int) bool {
	rest := strings.TrimLeft(window[m[1]:], " \n")
	for _, w := range turnWords {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return afterMatchAddresses(before, window, m)
}
