/**
 * A Dockerfile read the way BuildKit reads it, as far as scripts/check-docker-context.mjs needs:
 * parser directives (`escape`), line continuations (comment lines inside them dropped), ARG and ENV
 * substitution (`$X`, `${X}`, `${X:-default}`, `${X:+word}`), and per stage its WORKDIR, USER,
 * HEALTHCHECK, RUN count and COPY/ADD steps (flags, shell and JSON forms). Everything else is kept
 * as a plain step; nothing is executed.
 */

/** Stages in order; each step keeps the line its instruction starts on. */
export function parseDockerfile(text) {
  const lines = text.split(/\r?\n/);
  let escape = '\\';
  let first = 0;
  // Parser directives: `# name=value` lines at the very top, before anything else.
  for (; first < lines.length; first++) {
    const m = /^#\s*([a-zA-Z]+)\s*=\s*(\S+)\s*$/.exec(lines[first]);
    if (!m) break;
    if (m[1].toLowerCase() === 'escape') {
      if (m[2] !== '\\' && m[2] !== '`') throw new Error(`line ${first + 1}: escape must be \\ or \``);
      escape = m[2];
    }
  }
  const instructions = [];
  let current;
  for (let i = first; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trim();
    if (current === undefined && (trimmed === '' || trimmed.startsWith('#'))) continue;
    if (current !== undefined && trimmed.startsWith('#')) continue;
    const body = line.replace(/\s+$/, '');
    const continued = body.endsWith(escape);
    const part = continued ? body.slice(0, -1) : body;
    if (current === undefined) current = { line: i + 1, text: part };
    else current.text += ` ${part.trim()}`;
    if (!continued) {
      instructions.push(current);
      current = undefined;
    }
  }
  if (current !== undefined) instructions.push(current);

  const globals = new Map();
  const stages = [];
  for (const { line, text } of instructions) {
    const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(text);
    if (!m) throw new Error(`line ${line}: '${text.trim().slice(0, 40)}' is not an instruction`);
    const keyword = m[1].toUpperCase();
    const rest = m[2].trim();
    const stage = stages.at(-1);
    const vars = stage ? stage.vars : globals;
    const expand = (s) => substitute(s, vars, escape);
    if (keyword === 'ARG') {
      for (const decl of rest.split(/\s+/).filter(Boolean)) {
        const [name, ...value] = decl.split('=');
        if (value.length) vars.set(name, expand(value.join('=')));
        else if (!vars.has(name) && globals.has(name)) vars.set(name, globals.get(name));
      }
      continue;
    }
    if (keyword === 'FROM') {
      const words = rest.split(/\s+/).filter((w) => !w.startsWith('--'));
      // FROM sees only the ARGs declared before the first FROM.
      const image = substitute(words[0] ?? '', globals, escape);
      const name = words.length >= 3 && words[1].toLowerCase() === 'as' ? words[2].toLowerCase() : undefined;
      const parent = stages.find((s) => s.name === image.toLowerCase());
      stages.push({
        index: stages.length,
        name,
        label: name ?? String(stages.length),
        image,
        line,
        parent,
        workdir: parent ? parent.workdir : '/',
        user: parent?.user,
        healthcheck: parent?.healthcheck ?? false,
        vars: new Map(parent ? parent.vars : []),
        copies: [],
        runs: parent ? [...parent.runs] : [],
        steps: [],
      });
      continue;
    }
    if (!stage) throw new Error(`line ${line}: ${keyword} before the first FROM`);
    switch (keyword) {
      case 'WORKDIR': {
        const dir = expand(rest);
        stage.workdir = normalize(dir.startsWith('/') ? dir : `${stage.workdir}/${dir}`);
        break;
      }
      case 'ENV': {
        const pairs = /^[A-Za-z_][A-Za-z0-9_]*\s/.test(rest) && !rest.split(/\s/)[0].includes('=') ? [[rest.split(/\s/)[0], rest.slice(rest.indexOf(' ') + 1)]] : [...rest.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)].map((p) => [p[1], p[2].replace(/^"(.*)"$/, '$1')]);
        for (const [name, value] of pairs) stage.vars.set(name, expand(value));
        break;
      }
      case 'USER':
        stage.user = expand(rest);
        break;
      case 'HEALTHCHECK': {
        stage.healthcheck = !/^NONE$/i.test(rest);
        const command = /\bCMD\s+(.*)$/.exec(rest);
        stage.healthcheckCommand = command ? jsonForm(command[1]) : undefined;
        break;
      }
      case 'RUN':
        stage.runs.push(rest);
        stage.steps.push({ kind: 'run', line, text: rest, workdir: stage.workdir });
        break;
      case 'COPY':
      case 'ADD':
        stage.steps.push({ kind: 'copy', instruction: keyword, line, text: rest, workdir: stage.workdir, ...copyArguments(rest, expand) });
        break;
      default:
        stage.steps.push({ kind: 'other', keyword, line, json: jsonForm(rest) });
    }
  }
  return { stages };
}

/** An instruction's JSON (exec) form, `["a", "b"]`, as a list; undefined for the shell form. */
function jsonForm(text) {
  if (!text.trim().startsWith('[')) return undefined;
  try {
    const list = JSON.parse(text);
    return Array.isArray(list) && list.every((w) => typeof w === 'string') ? list : undefined;
  } catch {
    return undefined;
  }
}

function copyArguments(rest, expand) {
  const flags = {};
  let tail = rest;
  for (;;) {
    const m = /^--([a-z-]+)(?:=(\S*))?\s*/.exec(tail);
    if (!m) break;
    flags[m[1]] = m[2] ?? true;
    tail = tail.slice(m[0].length);
  }
  let words;
  if (tail.startsWith('[')) {
    try {
      const list = JSON.parse(tail);
      if (Array.isArray(list) && list.every((w) => typeof w === 'string')) words = list;
    } catch {
      // Not JSON: Docker then reads it as the shell form, and so does this.
    }
  }
  words ??= tail.split(/\s+/).filter(Boolean);
  words = words.map(expand);
  return {
    from: typeof flags.from === 'string' ? expand(flags.from) : undefined,
    heredoc: words.some((w) => w.startsWith('<<')),
    sources: words.slice(0, -1),
    dest: words.at(-1) ?? '',
  };
}

function substitute(text, vars, escape) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === escape && text[i + 1] === '$') {
      out += '$';
      i++;
      continue;
    }
    if (c !== '$') {
      out += c;
      continue;
    }
    const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([-+])([^}]*))?\}/.exec(text.slice(i));
    const bare = braced ? undefined : /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i));
    const m = braced ?? bare;
    if (!m) {
      out += c;
      continue;
    }
    const value = vars.get(m[1]);
    if (braced && m[2] === '-') out += value ? value : m[3];
    else if (braced && m[2] === '+') out += value ? m[3] : '';
    else out += value ?? '';
    i += m[0].length - 1;
  }
  return out;
}

function normalize(path) {
  const parts = [];
  for (const p of path.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return `/${parts.join('/')}`;
}
