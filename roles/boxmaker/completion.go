package boxmaker

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"boxmaker/core/atomicfile"
	"boxmaker/roles/rolecli"
)

// completionCommand prints a shell's completion for the binary and every
// role's name, made from the command definitions: bash and zsh ask the
// program itself (urfave/cli's --generate-bash-completion lists the
// commands and flags where the cursor is), fish gets urfave/cli's static
// script of each command line.
func completionCommand(b Build) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion for boxmaker and its roles (bash, zsh or fish)",
		ArgsUsage: "bash|zsh|fish",
		Description: "Load it in the shell, for example:\n\n" +
			"   source <(boxmaker completion bash)          # bash, or in ~/.bashrc\n" +
			"   boxmaker completion zsh > \"${fpath[1]}/_boxmaker\"\n" +
			"   boxmaker completion fish > ~/.config/fish/completions/boxmaker.fish\n\n" +
			"It completes boxmaker and each role's name (bxctl, yaag, ...), as boxmaker\n" +
			"links makes them.",
		Action: func(c *cli.Context) error {
			if err := rolecli.ExactArgs(c, 1, "one argument, the shell: bash, zsh or fish"); err != nil {
				return err
			}
			apps := b.Apps()
			var names []string
			for _, a := range apps {
				names = append(names, a.Name)
			}
			switch shell := c.Args().First(); shell {
			case "bash":
				fmt.Fprintf(c.App.Writer, bashCompletion, strings.Join(names, " "))
			case "zsh":
				fmt.Fprintf(c.App.Writer, zshCompletion, strings.Join(names, " "), strings.Join(names, " "))
			case "fish":
				for _, a := range apps {
					s, err := a.ToFishCompletion()
					if err != nil {
						return fmt.Errorf("fish completion of %s: %w", a.Name, err)
					}
					fmt.Fprintln(c.App.Writer, s)
				}
			default:
				return rolecli.Usagef("no completion for %q: the shells are bash, zsh and fish", shell)
			}
			return nil
		},
	}
}

// The scripts ask the command line typed so far, with
// --generate-bash-completion, for the words that may follow.
const bashCompletion = `# bash completion for Boxmaker (boxmaker completion bash)
_boxmaker() {
  local cur="${COMP_WORDS[COMP_CWORD]}" words
  if [[ "$cur" == -* ]]; then
    words=$("${COMP_WORDS[@]:0:COMP_CWORD}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    words=$("${COMP_WORDS[@]:0:COMP_CWORD}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _boxmaker %s
`

const zshCompletion = `#compdef %s
# zsh completion for Boxmaker (boxmaker completion zsh)
_boxmaker() {
  local -a opts
  local cur=${words[-1]}
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _boxmaker %s
`

// manCommand writes a man page for the binary and each role, made from
// the command definitions.
func manCommand(b Build) *cli.Command {
	return &cli.Command{
		Name:      "man",
		Usage:     "write the man pages of boxmaker and its roles into DIR (NAME.1)",
		ArgsUsage: "DIR",
		Description: "Each page is made from the commands' own definitions (their usage, flags and\n" +
			"descriptions), so it says what --help says: read one with man -l DIR/bxctl.1,\n" +
			"or install them in /usr/local/share/man/man1.",
		Action: func(c *cli.Context) error {
			if err := rolecli.ExactArgs(c, 1, "one argument, DIR"); err != nil {
				return err
			}
			dir := c.Args().First()
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			for _, a := range b.Apps() {
				page, err := a.ToManWithSection(1)
				if err != nil {
					return fmt.Errorf("the man page of %s: %w", a.Name, err)
				}
				path := filepath.Join(dir, a.Name+".1")
				if err := atomicfile.WriteFile(path, []byte(page), 0o644); err != nil {
					return err
				}
				fmt.Fprintf(c.App.Writer, "man: wrote %s\n", path)
			}
			return nil
		},
	}
}
