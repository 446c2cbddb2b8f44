# bash completion for contest(1)                        -*- shell-script -*-
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Everything it offers is read from the contest being completed, so it never
# offers what that binary does not have: commands and their subcommands from
# 'contest [COMMAND] --help' (the "Commands:" lines), each command's options
# and which of them take a value from the same help, run types from
# 'contest list', the choices of --format, --vary, --probe and the like from
# their help lines ("a, b or c"), labels from the results directory named on
# the line (-d DIR, else ./contest-results), campaign IDs from
# /var/lib/contest/campaign.

# _contest_help ARGS...: the help of the contest on the line, cached per ARGS
_contest_help()
{
	local key="$_contest_prog $*"
	if [[ $key != "$_contest_help_key" ]]; then
		_contest_help_key=$key
		_contest_help_text=$(LC_ALL=C "$_contest_prog" "$@" --help 2>/dev/null)
	fi
	printf '%s\n' "$_contest_help_text"
}

# the commands a help lists under "Commands:", one a line
_contest_commands()
{
	_contest_help "$@" | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\)  .*/\1/p'
}

# the options a help lists: "NAME ARG" a line; ARG is "-" for none and in
# brackets where the value is optional (--probe[=light|full]); a short
# option gets a line of its own ("-d DIR")
_contest_options()
{
	local line names rest arg re='^ +(-[A-Za-z], )?(--[a-z0-9-]+)(.*)$'
	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		names=${BASH_REMATCH[1]%, }
		names="$names ${BASH_REMATCH[2]}"
		rest=${BASH_REMATCH[3]}
		if [[ $rest == \[* ]]; then
			arg=${rest%%]*}]
			arg=[${arg#[=}
		elif [[ $rest =~ ^\ ([^ ]+) ]]; then
			arg=${BASH_REMATCH[1]}
		else
			arg=-
		fi
		for line in $names; do
			printf '%s %s\n' "$line" "$arg"
		done
	done < <(_contest_help "$@")
}

# the value an option takes, as its help names it ("-" for none)
_contest_optarg()	# _contest_optarg OPTION COMMAND...
{
	local opt=$1
	shift
	_contest_options "$@" | sed -n "s/^${opt//-/\\-} \(.*\)/\1/p" | head -n 1
}

# the choices of an option: those of its value's name (light|full), else
# those its help lists ("x (default), y, z or w", after a colon or alone);
# words of letters, digits, _ and -
_contest_choices()	# _contest_choices OPTION COMMAND...
{
	local opt=$1 arg line help=
	shift
	arg=$(_contest_optarg "$opt" "$@")
	arg=${arg#[}
	arg=${arg%]}
	if [[ $arg == *[a-z]* ]]; then
		printf '%s\n' "$arg" | tr '|' '\n' | sed -n 's/^\([a-z_][a-z0-9_-]*\).*/\1/p'
		return
	fi
	while IFS= read -r line; do
		[[ $line =~ ^\ +(-[A-Za-z],\ )?${opt}[\ =[] ]] || continue
		help=${line#*"$opt"}
		help=${help#"${help%%[! ]*}"}
		[[ $arg != - ]] && help=${help#"$arg"}
		break
	done < <(_contest_help "$@")
	printf '%s\n' "$help" |
		sed -e 's/([^)]*)//g' -e 's/^ *//' -e 's/^[^:]*: //' -e 's/;.*//' -e 's/ or /, /g' |
		tr ',' '\n' | sed -n 's/^ *\([a-z_][a-z0-9_-]*\) *$/\1/p'
}

# run types, or only the loads (ARG "loads"), as 'contest list' names them
_contest_runtypes()
{
	LC_ALL=C "$_contest_prog" list 2>/dev/null |
		sed -n 's/^\([a-z][a-z_]*\) .*/\1/p' |
		if [[ ${1-} == loads ]]; then grep '_load$'; else cat; fi
}

# the labels of the results directory named on the line, or the default one
_contest_labels()
{
	local dir=contest-results i f
	for ((i = 1; i < cword; i++)); do	# words, cword: _contest's
		case ${words[i]} in
		-d | --results) dir=${words[i + 1]} ;;
		--results=*) dir=${words[i]#--results=} ;;
		esac
	done
	dir=${dir/#\~/$HOME}
	for f in "$dir"/*.results; do
		[[ -f $f ]] || continue
		f=${f##*/}
		printf '%s\n' "${f%.results}"
	done
}

_contest_campaigns()
{
	local d
	for d in "${CONTEST_ROOT-}/var/lib/contest/campaign"/*/; do
		[[ -d $d ]] || continue
		d=${d%/}
		printf '%s\n' "${d##*/}"
	done
}

_contest_reply()	# _contest_reply WORDS: those that start with the current word
{
	local IFS=$'\n'
	COMPREPLY=($(compgen -W "$*" -- "$cur"))
}

_contest_reply_list()	# a comma-separated list: complete its last item
{
	local IFS=$'\n' head=
	[[ $cur == *,* ]] && head=${cur%,*},
	COMPREPLY=($(compgen -P "$head" -W "$*" -- "${cur##*,}"))
	compopt -o nospace 2>/dev/null
}

_contest()
{
	local cur prev words cword
	if declare -F _init_completion >/dev/null; then
		_init_completion -n =: || return
	else
		# without bash-completion: the words up to the cursor, split at
		# blanks only (so --probe=full and kernel:DIR stay one word)
		read -ra words <<<"${COMP_LINE:0:COMP_POINT}"
		[[ ${COMP_LINE:COMP_POINT-1:1} == [[:blank:]] ]] && words+=("")
		cword=$((${#words[@]} - 1))
		cur=${words[cword]}
		prev=${words[cword - 1]-}
	fi
	local _contest_prog=${words[0]/#\~/$HOME}
	local _contest_help_key= _contest_help_text=

	# the command (and a subcommand) on the line; run by default
	local cmd=() i w
	for ((i = 1; i < cword; i++)); do
		w=${words[i]}
		[[ $w == -* ]] && {
			# skip an option's separate value
			local a
			a=$(_contest_optarg "$w" "${cmd[@]}")
			[[ -n $a && $a != - && $a != \[* && $w != *=* ]] && ((i++))
			continue
		}
		if ((${#cmd[@]} == 0)) && _contest_commands | grep -qx -- "$w"; then
			cmd=("$w")
		elif ((${#cmd[@]} == 1)) && _contest_commands "${cmd[@]}" | grep -qx -- "$w"; then
			cmd+=("$w")
		fi
	done
	local -a helpcmd=("${cmd[@]}")
	((${#cmd[@]} == 0)) && helpcmd=(run)
	[[ ${words[1]-} == -r || ${words[1]-} == --report ]] && ((${#cmd[@]} == 0)) && helpcmd=(report)

	# an option's value: --name=VALUE or --name VALUE
	local opt=$prev
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		cur=${cur#*=}
	elif [[ $prev != -* || $(_contest_optarg "$prev" "${helpcmd[@]}") == - ||
		$(_contest_optarg "$prev" "${helpcmd[@]}") == \[* ]]; then
		opt=
	fi
	if [[ -n $opt ]]; then
		local arg
		arg=$(_contest_optarg "$opt" "${helpcmd[@]}")
		case $opt in
		-d | --results | --work-dir | -o | --other-dir | --root)
			if [[ ${helpcmd[0]} == plot && $opt == -o ]]; then
				_filedir svg 2>/dev/null || COMPREPLY=($(compgen -f -- "$cur"))
			else
				_filedir -d 2>/dev/null || COMPREPLY=($(compgen -d -- "$cur"))
			fi
			return ;;
		--baseline) _contest_reply "$(_contest_labels)"; return ;;
		--type) _contest_reply_list "$(_contest_runtypes)"; return ;;
		--compare) return ;;
		-w | --workload)
			case $cur in
			kernel:* | cmd:*)
				local kind=${cur%%:*}:
				cur=${cur#*:}
				COMPREPLY=($(compgen -P "$kind" -d -- "$cur"))
				compopt -o nospace -o filenames 2>/dev/null ;;
			*)
				_contest_reply "builtin"$'\n'"kernel:"$'\n'"cmd:"
				compopt -o nospace 2>/dev/null ;;
			esac
			return ;;
		--vary)
			if [[ $cur == *=* ]]; then
				return
			fi
			COMPREPLY=($(compgen -S = -W "$(_contest_choices --vary "${helpcmd[@]}")" -- "$cur"))
			compopt -o nospace 2>/dev/null
			return ;;
		esac
		case $arg in
		*FILE*) _filedir 2>/dev/null || COMPREPLY=($(compgen -f -- "$cur")) ;;
		*DIR*) _filedir -d 2>/dev/null || COMPREPLY=($(compgen -d -- "$cur")) ;;
		*) _contest_reply "$(_contest_choices "$opt" "${helpcmd[@]}")" ;;
		esac
		return
	fi

	if [[ $cur == -* ]]; then
		local o
		o=$(_contest_options "${helpcmd[@]}" | sed 's/ .*//')
		_contest_reply "$o"
		return
	fi

	if ((${#cmd[@]} == 0)); then
		_contest_reply "$(_contest_commands)"$'\n'"$(_contest_runtypes)"
		return
	fi
	# a command with subcommands of its own (campaign): those first
	local subs
	subs=$(_contest_commands "${cmd[0]}")
	if ((${#cmd[@]} == 1)) && [[ -n $subs ]]; then
		_contest_reply "$subs"
		return
	fi
	case ${cmd[*]} in
	run | compare) _contest_reply "$(_contest_runtypes)" ;;
	load) _contest_reply "$(_contest_runtypes loads)" ;;
	report | plot | relabel) _contest_reply "$(_contest_labels)" ;;
	merge) _filedir -d 2>/dev/null || COMPREPLY=($(compgen -d -- "$cur")) ;;
	campaign\ *) _contest_reply "$(_contest_campaigns)" ;;
	esac
}
_contest_complete()
{
	_contest "$@"
	# bash splits words at ':' (COMP_WORDBREAKS): put back only what
	# follows the last colon of the word
	local w=${COMP_LINE:0:COMP_POINT}
	w=${w##*[[:blank:]]}
	if [[ $w == *:* && $COMP_WORDBREAKS == *:* ]]; then
		local i
		for i in "${!COMPREPLY[@]}"; do
			COMPREPLY[i]=${COMPREPLY[i]#"${w%:*}":}
		done
	fi
}
complete -F _contest_complete contest
