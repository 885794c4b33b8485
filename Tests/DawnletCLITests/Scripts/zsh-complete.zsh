#!/usr/bin/zsh -f
# What an interactive zsh offers for a command line: a real zsh with compinit in a
# pseudo-terminal (zsh/zpty), the completion function found on fpath under its #compdef name,
# TAB pressed after the words given, and the listing zsh draws printed as it drew it.
#   zsh-complete.zsh FPATH_DIR WORDS...
# The words are joined with spaces and end with one, so that the next word is completed.
zmodload zsh/zpty || exit 3
fpath_dir=$1; shift
# A wide terminal: a long command line (a database's path) is echoed on one line, unwrapped.
zpty shell 'stty columns 400; TERM=dumb zsh -f -i'
zpty -w shell "PS1='READY> '; fpath=(${(q)fpath_dir} \$fpath); autoload -Uz compinit; compinit -u -D; zstyle ':completion:*' list-separator '--'; echo SETUP-DONE"

# Reads until `pattern` has been seen, then until the shell is quiet for a moment.
read_until() {
  local pattern=$1 line
  typeset -g got=""
  integer deadline=$(( SECONDS + 10 )) quiet=0
  while (( SECONDS < deadline )); do
    if zpty -r -t shell line; then
      got+=$line; quiet=0
    else
      [[ $got == *${~pattern}* ]] && (( ++quiet > 20 )) && return 0
      sleep 0.05
    fi
  done
  return 1
}
read_until 'SETUP-DONE*READY> ' || { print -r -- "no prompt: $got"; exit 4 }
zpty -w -n shell "${(j: :)@} "$'\t'
# The line typed comes back first; what TAB brings follows it, and then the shell is quiet.
read_until "${(j: :)${(@q)@}} ?*" || { print -r -- "no answer: $got"; exit 5 }
# Without the terminal's escapes and carriage returns: the lines as a person reads them.
print -r -- ${got//$'\e'\[[0-9;?]#[a-zA-Z]/} | tr -d '\r\a'
zpty -d shell
