import type { Command } from 'commander';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface OptionSpec {
  readonly names: readonly string[];
  readonly about: string;
  readonly takesValue: boolean;
  readonly choices: readonly string[];
}

/** One command of the tree, by its path of names below the root ("" for the root, "posts create"). */
interface NodeSpec {
  readonly path: string;
  readonly subcommands: readonly { name: string; about: string }[];
  readonly options: readonly OptionSpec[];
  /** Values of the first positional argument, when it has a fixed set. */
  readonly values: readonly string[];
  /** Whether a positional argument may be a file (any argument without a fixed set of values). */
  readonly files: boolean;
}

const HELP: OptionSpec = { names: ['-h', '--help'], about: 'show help', takesValue: false, choices: [] };

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The tree as plain data, read from commander: what every script below is generated from. */
export function commandTree(root: Command): NodeSpec[] {
  const nodes: NodeSpec[] = [];
  const visit = (cmd: Command, path: string): void => {
    const args = cmd.registeredArguments;
    nodes.push({
      path,
      subcommands: cmd.commands.map((c) => ({
        name: c.name(),
        about: oneLine(c.summary() || c.description()),
      })),
      options: [
        ...cmd.options
          .filter((o) => !o.hidden)
          .map((o) => ({
            names: [o.short, o.long].filter((n): n is string => Boolean(n)),
            about: oneLine(o.description),
            takesValue: o.required || o.optional,
            choices: o.argChoices ?? [],
          })),
        HELP,
      ],
      values: args[0]?.argChoices ?? [],
      files: args.some((a) => !a.argChoices),
    });
    for (const c of cmd.commands) visit(c, path ? `${path} ${c.name()}` : c.name());
  };
  visit(root, '');
  return nodes;
}

/** Single-quoted for every shell here: names and descriptions are ours, but a quote must not end the string. */
const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const fishq = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * The helpers every script shares, as `case` tables on "path" and "path|flag": the subcommands at a path, the
 * options there (the root's apply everywhere), which options take a value (so the walk skips it), and fixed values.
 */
function posixTables(name: string, nodes: readonly NodeSpec[]): string {
  const root = nodes.find((n) => n.path === '');
  const rootOptions = new Set(root?.options.flatMap((o) => o.names));
  const lines: string[] = [];
  const table = (fn: string, rows: [string, string][]): void => {
    lines.push(`${fn}() {`, '  case "$1" in');
    for (const [key, value] of rows) lines.push(`    ${sq(key)}) echo ${sq(value)} ;;`);
    lines.push('  esac', '}');
  };
  table(
    `_${name}_subs`,
    nodes
      .filter((n) => n.subcommands.length)
      .map((n) => [n.path, n.subcommands.map((s) => s.name).join(' ')]),
  );
  table(
    `_${name}_opts`,
    nodes.map((n) => [
      n.path,
      n.options
        .flatMap((o) => o.names)
        .filter((o) => n.path === '' || !rootOptions.has(o))
        .join(' '),
    ]),
  );
  table(
    `_${name}_values`,
    nodes.flatMap((n): [string, string][] => [
      ...(n.values.length ? [[n.path, n.values.join(' ')] as [string, string]] : []),
      ...n.options
        .filter((o) => o.choices.length)
        .flatMap((o) => o.names.map((f): [string, string] => [`${n.path}|${f}`, o.choices.join(' ')])),
    ]),
  );
  const valued = nodes.flatMap((n) =>
    n.options.filter((o) => o.takesValue).flatMap((o) => o.names.map((f) => `${n.path}|${f}`)),
  );
  const rootValued = (root?.options ?? []).filter((o) => o.takesValue).flatMap((o) => o.names);
  lines.push(
    `_${name}_valued() {`,
    '  case "$1|$2" in',
    `    ${[...valued.map(sq), ...rootValued.map((f) => `*${sq(`|${f}`)}`)].join('|') || "''"}) return 0 ;;`,
    '  esac',
    '  return 1',
    '}',
    `_${name}_files() {`,
    '  case "$1" in',
    `    ${
      nodes
        .filter((n) => n.files && !n.subcommands.length)
        .map((n) => sq(n.path))
        .join('|') || "''"
    }) return 0 ;;`,
    '  esac',
    '  return 1',
    '}',
    // The path of subcommands typed so far, skipping options and the value of each option that takes one.
    `_${name}_path() {`,
    '  local p="" skip=0 w subs',
    '  for w in "$@"; do',
    '    if [ "$skip" = 1 ]; then skip=0; continue; fi',
    '    case "$w" in',
    `      -*) if _${name}_valued "$p" "$w"; then skip=1; fi; continue ;;`,
    '    esac',
    `    subs=" $(_${name}_subs "$p") "`,
    '    case "$subs" in *" $w "*) p="${p:+$p }$w" ;; esac',
    '  done',
    '  printf "%s" "$p"',
    '}',
  );
  return lines.join('\n');
}

function bashScript(name: string, nodes: readonly NodeSpec[]): string {
  return `# ${name} completion for bash, generated from its command tree by \`${name} completion bash\`.
# Load it in ~/.bashrc:  source <(${name} completion bash)
${posixTables(name, nodes)}
_${name}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" p choices
  p="$(_${name}_path "\${COMP_WORDS[@]:1:COMP_CWORD-1}")"
  COMPREPLY=()
  if [ "$COMP_CWORD" -gt 1 ] && _${name}_valued "$p" "$prev"; then
    choices="$(_${name}_values "$p|$prev")"
    if [ -n "$choices" ]; then COMPREPLY=($(compgen -W "$choices" -- "$cur")); fi
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    choices="$(_${name}_opts "$p")"
    if [ -n "$p" ]; then choices="$choices $(_${name}_opts '')"; fi
    COMPREPLY=($(compgen -W "$choices" -- "$cur"))
    return 0
  fi
  choices="$(_${name}_subs "$p") $(_${name}_values "$p")"
  if [ -n "\${choices// /}" ]; then COMPREPLY=($(compgen -W "$choices" -- "$cur")); return 0; fi
  if _${name}_files "$p"; then COMPREPLY=($(compgen -f -- "$cur")); fi
  return 0
}
complete -o default -o bashdefault -F _${name} ${name}
`;
}

function zshScript(name: string, nodes: readonly NodeSpec[]): string {
  const describe = (items: readonly { name: string; about: string }[]): string =>
    items.map((i) => sq(`${i.name.replace(/:/g, '\\:')}:${i.about}`)).join(' ');
  const root = nodes.find((n) => n.path === '');
  const rootOptions = new Set(root?.options.flatMap((o) => o.names));
  const lines = nodes.map((n) => {
    const opts = n.options.flatMap((o) =>
      o.names.filter((f) => !rootOptions.has(f)).map((f) => ({ name: f, about: o.about })),
    );
    return `    ${sq(n.path)}) cmds=(${describe(n.subcommands)}); opts=(${describe(opts)}) ;;`;
  });
  return `#compdef ${name}
# ${name} completion for zsh, generated from its command tree by \`${name} completion zsh\`.
# Load it in ~/.zshrc (after compinit):  source <(${name} completion zsh)
${posixTables(name, nodes)}
_${name}() {
  local p choices cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}"
  local -a cmds opts rootopts
  p="$(_${name}_path "\${(@)words[2,CURRENT-1]}")"
  if (( CURRENT > 2 )) && _${name}_valued "$p" "$prev"; then
    choices="$(_${name}_values "$p|$prev")"
    if [[ -n $choices ]]; then compadd -- \${=choices}; else _files; fi
    return
  fi
  case "$p" in
${lines.join('\n')}
  esac
  if [[ $cur == -* ]]; then
    rootopts=(\${(f)"$(_${name}_rootopts)"})
    _describe -t options option opts -- rootopts
    return
  fi
  choices="$(_${name}_values "$p")"
  if (( \${#cmds} )); then _describe -t commands command cmds; return; fi
  if [[ -n $choices ]]; then compadd -- \${=choices}; return; fi
  if _${name}_files "$p"; then _files; fi
}
_${name}_rootopts() {
  print -l -- ${describe((root?.options ?? []).flatMap((o) => o.names.map((f) => ({ name: f, about: o.about }))))}
}
if (( $+functions[compdef] )); then compdef _${name} ${name}; fi
`;
}

function fishScript(name: string, nodes: readonly NodeSpec[]): string {
  const fn = `__${name}`;
  const lines: string[] = [
    `# ${name} completion for fish, generated from its command tree by \`${name} completion fish\`.`,
    `# Install it:  ${name} completion fish > ~/.config/fish/completions/${name}.fish`,
    `function ${fn}_subs`,
    '    switch $argv[1]',
    ...nodes
      .filter((n) => n.subcommands.length)
      .map(
        (n) =>
          `        case ${fishq(n.path)}\n            echo ${n.subcommands.map((s) => s.name).join(' ')}`,
      ),
    '    end',
    'end',
    `function ${fn}_valued`,
    '    switch "$argv[1]|$argv[2]"',
    `        case ${
      nodes
        .flatMap((n) =>
          n.options
            .filter((o) => o.takesValue)
            .flatMap((o) => o.names.map((f) => fishq(`${n.path === '' ? '*' : n.path}|${f}`))),
        )
        .join(' ') || "''"
    }`,
    '            return 0',
    '    end',
    '    return 1',
    'end',
    // The path of subcommands typed so far, skipping options and each option's value.
    `function ${fn}_path`,
    '    set -l p ""',
    '    set -l skip 0',
    '    for w in (commandline -opc)[2..-1]',
    '        if test $skip = 1',
    '            set skip 0',
    '            continue',
    '        end',
    "        if string match -q -- '-*' $w",
    `            ${fn}_valued "$p" $w; and set skip 1`,
    '            continue',
    '        end',
    `        if contains -- $w (string split ' ' -- (${fn}_subs "$p"))`,
    '            set p (string trim -- "$p $w")',
    '        end',
    '    end',
    '    echo $p',
    'end',
    `function ${fn}_at`,
    `    set -l p (${fn}_path)`,
    '    test "$p" = "$argv[1]"',
    'end',
    `complete -c ${name} -f`,
  ];
  const root = nodes.find((n) => n.path === '');
  const rootOptions = new Set(root?.options.flatMap((o) => o.names));
  for (const n of nodes) {
    const at = n.path === '' ? '' : ` -n ${fishq(`${fn}_at ${fishq(n.path)}`)}`;
    const atRoot = ` -n ${fishq(`${fn}_at ''`)}`;
    for (const s of n.subcommands) {
      lines.push(
        `complete -c ${name}${n.path === '' ? atRoot : at} -a ${fishq(s.name)} -d ${fishq(s.about)}`,
      );
    }
    if (n.values.length) lines.push(`complete -c ${name}${at || atRoot} -a ${fishq(n.values.join(' '))}`);
    if (n.files && !n.subcommands.length) lines.push(`complete -c ${name}${at} -F`);
    for (const o of n.options) {
      if (n.path !== '' && o.names.every((f) => rootOptions.has(f))) continue;
      const flags = o.names
        .map((f) => (f.startsWith('--') ? `-l ${f.slice(2)}` : `-s ${f.slice(1)}`))
        .join(' ');
      const value = o.choices.length ? ` -x -a ${fishq(o.choices.join(' '))}` : o.takesValue ? ' -r -F' : '';
      lines.push(`complete -c ${name}${at} ${flags}${value} -d ${fishq(o.about)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The completion script for this shell, generated from the program's command tree. */
export function completionScript(program: Command, shell: Shell): string {
  const nodes = commandTree(program);
  const name = program.name();
  if (shell === 'bash') return bashScript(name, nodes);
  if (shell === 'zsh') return zshScript(name, nodes);
  return fishScript(name, nodes);
}
