package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// completionMarker, last on a command line, asks webload for the words that may come next
// instead of running: the shell scripts below call it on each Tab. The name is urfave/cli's,
// so its own scripts work too; webload answers it itself, from the arguments it is given
// (urfave/cli's answer reads os.Args and completes no flag values).
const completionMarker = "--generate-bash-completion"

// completionShells are the shells `webload completion` has a script for.
var completionShells = []string{"bash", "zsh", "fish"}

func completionCommandDef(stdout io.Writer) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the Tab completion script for bash, zsh or fish: source <(webload completion bash)",
		ArgsUsage: strings.Join(completionShells, "|"),
		Flags:     []cli.Flag{helpFlag()},
		HideHelp:  true,
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usagef("completion: name one shell: %s", strings.Join(completionShells, ", "))
			}
			var script string
			switch shell := c.Args().First(); shell {
			case "bash":
				script = bashCompletion
			case "zsh":
				script = zshCompletion
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return fmt.Errorf("writing the fish completion: %w", err)
				}
				// urfave/cli leaves the back quotes that mark a flag's value name in its text.
				script = strings.ReplaceAll(s, "`", "")
			default:
				return usagef("completion: no script for %q; the shells are %s", shell, strings.Join(completionShells, ", "))
			}
			_, err := io.WriteString(stdout, script)
			return stdoutErr(err)
		},
	}
}

// complete prints, a line each, the words that may replace the last of words (the one being
// typed, maybe ""): the flags it begins, else the commands and subcommands; nothing after a
// flag that takes a value, so that the shell offers file names.
func complete(app *cli.App, words []string, w io.Writer) error {
	typed := ""
	if len(words) > 0 {
		typed, words = words[len(words)-1], words[:len(words)-1]
	}
	flags, cmds := app.Flags, app.Commands
	var cmd *cli.Command
	positional := false
	for i := 0; i < len(words); i++ {
		word := words[i]
		if strings.HasPrefix(word, "-") && word != "-" {
			name := strings.TrimLeft(word, "-")
			if !strings.Contains(name, "=") && valueFlags(flags)[name] {
				if i == len(words)-1 {
					return nil // the value of a flag: the shell completes file names
				}
				i++
			}
			continue
		}
		if c := findCommand(cmds, word); c != nil && !positional {
			cmd, flags, cmds = c, c.Flags, c.Subcommands
			continue
		}
		positional = true
	}
	var out []string
	switch {
	case strings.HasPrefix(typed, "-"):
		for _, f := range flags {
			if vf, ok := f.(cli.VisibleFlag); ok && !vf.IsVisible() {
				continue
			}
			for _, n := range f.Names() {
				dashed := "--" + n
				if len(n) == 1 {
					dashed = "-" + n
				}
				if strings.HasPrefix(dashed, typed) {
					out = append(out, dashed)
				}
			}
		}
	case positional:
	case cmd != nil && cmd.Name == "completion":
		out = completionShells
	case cmd != nil && cmd.Name == "help":
		out = commandNames(app.Commands)
	default:
		out = commandNames(cmds)
	}
	for _, word := range out {
		if strings.HasPrefix(word, typed) && !slices.Contains(words, word) {
			if _, err := fmt.Fprintln(w, word); err != nil {
				return stdoutErr(err)
			}
		}
	}
	return nil
}

// bashCompletion asks webload for the words at each Tab; with none (a flag's value, a URL
// file) bash completes file names.
const bashCompletion = `# bash completion for webload. Load it in this shell with
#   source <(webload completion bash)
# or for every new shell with
#   webload completion bash > ~/.local/share/bash-completion/completions/webload
_webload() {
    local prog=${COMP_WORDS[0]/#\~/$HOME}
    local cur=${COMP_WORDS[COMP_CWORD]}
    local IFS=$'\n'
    COMPREPLY=($(compgen -W "$("$prog" "${COMP_WORDS[@]:1:COMP_CWORD-1}" "$cur" ` + completionMarker + ` 2>/dev/null)" -- "$cur"))
}
complete -o bashdefault -o default -F _webload webload
`

// zshCompletion works sourced (it registers itself with compdef) and as the file _webload in
// a directory of $fpath (autoloaded, it completes at once).
const zshCompletion = `#compdef webload
# zsh completion for webload. Load it in this shell with
#   source <(webload completion zsh)
# or for every new shell, save it as _webload in a directory of your $fpath.
_webload() {
  local -a opts
  opts=("${(@f)$("${(Q)words[1]}" "${(@Q)words[2,CURRENT-1]}" "${(Q)words[CURRENT]}" ` + completionMarker + ` 2>/dev/null)}")
  if [[ -n "${opts[1]}" ]]; then
    compadd -- "${opts[@]}"
  else
    _files
  fi
}
if [[ "${funcstack[1]}" == "_webload" ]]; then
  _webload "$@"
else
  compdef _webload webload
fi
`
