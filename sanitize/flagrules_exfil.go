package sanitize

// flag-exfil-code: code that sends what must not leave (docs/specs/
// sanitizer.md 6.3): the whole environment, a credential file's contents,
// the page's cookies or storage, to somewhere else. Code that sends one
// token from the environment to the API it is for (an Authorization
// header, a Slack form field) is ordinary work and passes: what the rule
// looks for is the environment or a file of secrets as the data sent.
//
// Sources: MITRE ATT&CK T1552.001 (credentials in files), T1048
// (exfiltration over an alternative protocol) and T1567 (over a web
// service); OWASP LLM01 and LLM02 (2025) on agents made to run code that
// leaks; GTFOBins' file-upload entries for curl, wget, nc, socat and bash
// (/dev/tcp); Hermes Agent's exfil_curl and read_secrets (MIT), which these
// widen to other languages.

const RuleFlagExfilCode = "flag-exfil-code"

// wholeEnv is the whole environment as a value: not one variable of it.
const wholeEnv = `(?:dict\(\s?os\.environ\s?\)|os\.environ\.copy\(\)|os\.environ\.items\(\)|str\(\s?os\.environ\s?\)|` +
	`os\.environ\s?[),}]|json\.dumps\(\s?(?:dict\()?\s?os\.environ|os\.environ\(\)|` +
	`process\.env\s?[),}]|json\.stringify\(\s?process\.env\s?\)|object\.(?:entries|keys)\(\s?process\.env\s?\)|` +
	`deno\.env\.toobject\(\)|env::vars\(\)|os\.environ\(\)|env\.to_h\b|env\.to_hash\b|env\.to_a\b|` +
	`strings\.join\(\s?os\.environ\(\))`

// credentialDir is a directory of credentials archived or copied whole.
const credentialDir = `(?:~|\$home|\$\{home\}|/root|/home/[\w.-]+)/(?:\.ssh|\.gnupg|\.aws|\.kube|\.password-store|\.docker)/?(?:\s|$|\|)`

// pageSecrets are what a page holds that must not leave it.
const pageSecrets = `(?:document\.cookie|localstorage|sessionstorage|indexeddb|navigator\.credentials)`

// credentialContents is a credential file read in code.
var credentialContents = `(?:open|read_text|read_bytes|readfile|readfilesync|read_to_string|readall|get-content|expanduser)` +
	`\(?[^\n]{0,120}?` + credentialFile

var exfilPatterns = []flagPattern{
	// An HTTP client call whose data is the environment, the page's
	// cookies or storage (Python, JavaScript, Go).
	fp(RuleFlagExfilCode, []string{"requests", "httpx", "urllib", "session", "aiohttp", "fetch", "axios", "http", "navigator", "xhr", "xmlhttprequest", "$", "jquery", "urlopen", "post", "put", "sendbeacon", "client"}, 500,
		`[\w$.]{0,40}(?:\.(?:post|put|patch|get|request|urlopen|sendbeacon|send|ajax|post_form)|fetch|urlopen)\s?\([^\n]{0,400}?(?:`+wholeEnv+`|`+pageSecrets+`)`).
		needingBefore('\n', "environ", "env", "cookie", "localstorage", "sessionstorage", "indexeddb", "credentials", "toobject", "vars", "to_h", "to_hash", "to_a"),
	// A send of a socket, request or stream whose data is the page's
	// secrets, the environment, or a credential file read in place
	// (r.send(document.cookie), s.sendall(open("~/.ssh/id_rsa").read())).
	fp(RuleFlagExfilCode, []string{"send", "sendall", "write", "emit", "sendbeacon", "post", "put", "sendto"}, 300,
		`(?:send|sendall|write|emit|sendbeacon|post|put|sendto)\s?\(\s?[^\n]{0,80}?(?:`+wholeEnv+`|`+pageSecrets+`|`+credentialContents+`)`).
		needingBefore('\n', "environ", "env", "cookie", "localstorage", "sessionstorage", "indexeddb", "credentials", "ssh", "aws", "netrc", "kube", "gnupg", "pgpass", "docker", "npmrc", "pypirc", "shadow"),
	// An image or beacon that carries cookies away: new Image().src = ...
	fp(RuleFlagExfilCode, []string{"new", "img", "image", "src", "location", "window", "document"}, 300,
		`(?:new\simage\(\)\.src|img\.src|image\.src|\.src|location(?:\.href)?|window\.location(?:\.href)?|document\.location)\s?=\s?[^\n;]{0,200}?`+pageSecrets).
		needingBefore('\n', "cookie", "localstorage", "sessionstorage"),
	// A credential file read, then sent within a few lines.
	fp(RuleFlagExfilCode, []string{"open", "read_text", "read_bytes", "readfile", "readfilesync", "read_to_string", "readall", "get-content", "expanduser"}, 800,
		credentialContents+`[\s\S]{0,500}?(?:requests\.|httpx\.|urlopen|\.sendall\(|\.send\(|smtplib|http\.client|socket\.|fetch\(|axios\.|http\.post|http\.newrequest|net\.dial|\.post\(|\.put\()`).
		needingBefore('\n', "ssh", "aws", "netrc", "pgpass", "git-credentials", "docker", "kube", "npmrc", "pypirc", "shadow", "gnupg", "hosts", "password-store", "vault-token", "env", "credentials"),
	// Shell: a credential file or the environment uploaded or piped to the
	// network (curl -d @file, --data-binary @file, -F f=@file, -T file,
	// wget --post-file, nc/ncat/socat with a file on standard input,
	// /dev/tcp).
	fp(RuleFlagExfilCode, []string{"curl", "wget"}, 600,
		`(?:curl|wget)\s[^\n]{0,300}?(?:(?:-d|--data(?:-binary|-raw|-urlencode)?|-f|--form|-t|--upload-file|--post-file|--body-file)[\s=]?["']?[\w-]{0,20}=?@?|\$\(\s?(?:cat|base64|tar)\s)[^\s"']{0,80}?`+credentialFile).
		needingBefore('\n', "ssh", "aws", "netrc", "pgpass", "git-credentials", "docker", "kube", "npmrc", "pypirc", "shadow", "gnupg", "hosts", "password-store", "vault-token", "env", "credentials"),
	fp(RuleFlagExfilCode, []string{"curl", "wget"}, 400,
		`(?:curl|wget)\s[^\n]{0,300}?(?:-d|--data(?:-binary|-raw)?|--post-data|-f|--form)[\s=]?["']?[^\s]{0,40}?\$\(\s?(?:env|printenv|set|export\s-p)\s?\)`),
	fp(RuleFlagExfilCode, []string{"nc", "ncat", "netcat", "socat", "telnet"}, 300,
		`(?:nc|ncat|netcat|socat|telnet)\s[^\n|]{0,120}?<\s?[^\s]{0,80}?`+credentialFile),
	fp(RuleFlagExfilCode, []string{"cat", "tar", "base64", "env", "printenv", "zip", "gzip", "xxd"}, 400,
		`(?:(?:cat|tar|base64|zip|gzip|xxd)\s[^\n|]{0,120}?(?:`+credentialFile+`|`+credentialDir+`)[^\n|]{0,40}|env|printenv|set)\s?\|\s?`+
			`(?:[\w-]+\s[^\n|]{0,40}\|\s?){0,2}(?:nc|ncat|netcat|socat|curl|wget|telnet|openssl\ss_client)\b`).
		needingBefore('\n', "nc", "ncat", "netcat", "socat", "curl", "wget", "telnet", "openssl"),
	fp(RuleFlagExfilCode, []string{"cat", "env", "printenv", "exec", "bash", "sh"}, 300,
		`(?:cat\s[^\n>]{0,120}?`+credentialFile+`[^\n>]{0,40}|env|printenv|exec\s\d)\s?>\s?/dev/(?:tcp|udp)/`).needingBefore('\n', "tcp", "udp"),
	// A credential file copied to another host: scp, rsync or sftp with
	// a remote destination (user@host:path or host:path).
	fp(RuleFlagExfilCode, []string{"scp", "rsync", "sftp"}, 400,
		`(?:scp|rsync|sftp)\s[^\n]{0,160}?(?:`+credentialFile+`|`+credentialDir+`)[^\n]{0,120}?(?:[\w.-]+@[\w.-]+|\s[\w-]+\.[\w.-]+):`).
		needingBefore('\n', "ssh", "aws", "netrc", "pgpass", "git-credentials", "docker", "kube", "npmrc", "pypirc", "shadow", "gnupg", "hosts", "password-store", "vault-token", "env", "credentials"),
	// PowerShell: a web request whose body is the environment or a
	// credential file.
	fp(RuleFlagExfilCode, []string{"invoke-restmethod", "invoke-webrequest", "irm", "iwr"}, 500,
		`(?:invoke-restmethod|invoke-webrequest|irm|iwr)\s[^\n]{0,300}?-(?:body|infile)\s[^\n]{0,40}?`+
			`(?:\(?\s?(?:get-childitem|gci|dir|ls)\senv:|\$env:\w+\s?\)|get-content\s[^\n]{0,80}?`+credentialFile+`|`+credentialFile+`)`).
		needingBefore('\n', "body", "infile"),
}
