/**
 * The files a shell task's command runs from its scripts folder, where that can be known without
 * running it: `bash deploy.sh`, `sh -e setup.sh arg`, `python3 tool.py`, `./run.sh`, in each
 * command of a list (`a && b; c | d`) until one changes folder (`cd`, `pushd`). Anything built at
 * run time (a `$variable`, `$(…)`, a glob, `~`) or given as an absolute path (a file of the node
 * itself) is not guessed at: a command that names no file this way simply names none.
 */

/** Programs whose first operand is a script file. */
const INTERPRETERS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'python', 'python2', 'python3', 'perl', 'ruby', 'php', 'node', 'source', '.']);
/** Options after which the operand is code or a module, not a file. */
const CODE_OPTIONS = new Set(['-c', '-m', '-e', '-E', '-r']);
/** Options that take the next word as their value. */
const VALUE_OPTIONS = new Set(['-o', '+o', '-O', '+O', '-W', '-X', '-I', '--rcfile', '--init-file']);
/** Words before a command that do not change which file it runs. */
const PREFIXES = /^(?:[A-Za-z_][A-Za-z0-9_]*=.*|exec|sudo|env|time|nice|then|do|else|!|\{)$/;
/** Characters that make a word something the shell computes. */
const COMPUTED = /[$`*?[\]{}~\\<>()!&|;'"]/;

/** Splits a command line into simple commands; none after a folder change (relative paths move). */
function simpleCommands(cmd: string): string[][] {
  const out: string[][] = [];
  for (const part of cmd.split(/&&|\|\||[;|\n]/)) {
    const words = part.trim().split(/\s+/).filter(Boolean);
    // Leading assignments (`DEBUG=1 bash x.sh`), `exec`, `sudo`, `then`, ... do not change the file.
    while (words.length && PREFIXES.test(words[0])) words.shift();
    if (!words.length) continue;
    if (words[0] === 'cd' || words[0] === 'pushd' || words[0] === 'popd') break;
    out.push(words);
  }
  return out;
}

/** A plain word quoted whole ('x.sh' or "x.sh") is the same word. */
const unquoted = (w: string): string => (/^'[^']*'$/.test(w) || /^"[^"$`\\]*"$/.test(w) ? w.slice(1, -1) : w);

/**
 * Relative paths of the script files a shell command runs, in order, without duplicates. Paths are
 * as written (relative to the task's working folder).
 */
export function scriptsNamedBy(cmd: string): string[] {
  const found: string[] = [];
  for (const words of simpleCommands(cmd)) {
    const program = unquoted(words[0]);
    let file: string | undefined;
    if (program.startsWith('./') && !COMPUTED.test(program)) file = program;
    else if (INTERPRETERS.has(program.replace(/^\/(usr\/)?bin\//, ''))) {
      const rest = words.slice(1).map(unquoted);
      for (let i = 0; i < rest.length; i++) {
        const w = rest[i];
        if (CODE_OPTIONS.has(w)) break;
        if (VALUE_OPTIONS.has(w)) i++;
        else if (!w.startsWith('-') && !w.startsWith('+')) {
          file = w;
          break;
        }
      }
    }
    if (!file || COMPUTED.test(file) || file.startsWith('/') || file === '.' || file === '..') continue;
    const path = file.replace(/^(\.\/)+/, '');
    if (path && !found.includes(path)) found.push(path);
  }
  return found;
}
