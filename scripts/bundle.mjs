/**
 * Bundles the `hearth` command into dist/bundle/ so that it starts fast, then records V8's compiled
 * code for it (the code cache) from a warm-up: several `plugin validate` runs in one process.
 *
 * Why a bundle: Node resolving, reading and compiling a few hundred small files (the `yaml` library
 * alone is 72) cost more than `hearth plugin validate` itself. Why CommonJS and not split ES
 * modules: Node 20 can reuse compiled code only for a script run through `vm.Script` with
 * `cachedData` (ES modules get no code cache before Node 22), and most of what remains after
 * bundling is V8 compiling the YAML parser and the validators for the first time. Command actions
 * still load their code on first use: esbuild turns each `await import()` of our own modules into
 * a lazy initialiser, so an offline command never runs the server's code, and the packages left
 * external below (the server's, the database's) are never even read.
 *
 * The warm-up's cache runs wherever the Node that wrote it runs (bin/hearth reads the stamp
 * written beside it): it holds every function the warm-up compiled, where Node 22.1+'s own compile
 * cache (module.enableCompileCache()) holds the top level only. Another Node gets Node's cache.
 *
 * Usage: node scripts/bundle.mjs [--metafile] [--no-cache]   (run by `npm run build`)
 */
import { build } from 'esbuild';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * How the bundle file starts; bin/hearth checks for it (a bundle built before it did not). The file
 * is one expression whose value is the module's function: on Node 20, vm.Script runs the file and
 * gets the function as the script's value (`module` is no global there, so the assignment goes to
 * a throwaway object); on Node 22+, Node requires the file as a module, whose exports it becomes.
 */
const BUNDLE_FUNCTION_START = '(typeof module == "object" ? module : {}).exports = (function (exports, require, module, __filename, __dirname, __hearthUrl) {';
const outdir = join(root, 'dist', 'bundle');
const outfile = join(outdir, 'hearth.cjs');

/**
 * Left to Node at run time: packages that read their own files next to their code (PGlite's wasm
 * and data files), that load optional native or dynamic modules (pg, playwright-core), and the
 * server's packages (only `hearth serve` loads them, so bundling them would only grow the file).
 */
const external = ['@electric-sql/pglite', 'pg', 'pg-native', 'playwright-core', 'fastify', '@fastify/*', 'react', 'react-dom', 'vite'];

/**
 * `hearth serve`'s own bundle (src/cli/serve-main.ts) holds the server's packages too: Fastify,
 * its router (find-my-way), avvio, pino, light-my-request and the rest. Left to Node, a restart
 * spent more time resolving, reading and compiling their ~200 files (with no code cache) than
 * building the app; in the bundle they are one file that the serve warm-up's code cache covers.
 * PGlite still reads its WebAssembly and data files beside its code, and pg loads pg-native at
 * will: those stay Node's.
 */
const serveExternal = external.filter((name) => name !== 'fastify' && name !== '@fastify/*');

/**
 * The `yaml` package's Node build reads process.env.LOG_TOKENS for every token its parser sees
 * (and LOG_STREAM per document): each read is a call into Node's environment, and together they
 * were a sixth of parsing time. Its browser build is the same code (ES modules) without them, so
 * the bundle takes that one, for every import of `yaml`. (Binary scalars then come back as
 * Uint8Array rather than Buffer, which src/package/yaml/convert.ts reads the same way.)
 */
const yamlDir = dirname(createRequire(import.meta.url).resolve('yaml/package.json'));
const yamlWithoutEnvLookups = {
  name: 'yaml-browser-build',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: join(yamlDir, 'browser', 'index.js') }));
    // src/package/yaml/engine.ts finds that build at run time, by file; here it is imported.
    b.onLoad({ filter: /[\\/]src[\\/]package[\\/]yaml[\\/]engine\.ts$/ }, () => ({
      contents: "export { parseAllDocuments, LineCounter } from 'yaml';",
      loader: 'ts',
      resolveDir: join(root, 'src', 'package', 'yaml'),
    }));
  },
};

/**
 * commander's command.js requires node:child_process at load, for executable subcommands (a
 * subcommand run as a separate program), which Hearth never declares. Loading it also loads net,
 * dgram and their bindings on every start: the shim below requires it on the first spawn only.
 */
const commanderWithoutEagerChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const eager = "const childProcess = require('node:child_process');";
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(eager)) throw new Error(`${args.path}: commander changed; update ${commanderWithoutEagerChildProcess.name} in scripts/bundle.mjs`);
      const lazy = "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };";
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

/**
 * re2js builds RE2's Unicode tables as its module is set up: 2.4 ms of every `hearth plugin
 * validate` (a tenth of the checks' time, issue 30), though only a YAQL condition that matches a
 * regular expression (`=~`, `!~`, `matches()`) uses it, and few plugins hold one. In the bundle,
 * src/core/yaql/regex.ts requires it when it compiles its first pattern: esbuild sets a required
 * module up on its first require. The same ES module build the import names, so the same code.
 */
const re2jsBuild = createRequire(import.meta.url).resolve('re2js').replace(/index\.cjs$/, 'index.js');
const re2jsOnFirstPattern = {
  name: 're2js-on-first-pattern',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]core[\\/]yaql[\\/]regex\.ts$/ }, (args) => {
      const eager = "import { RE2JS } from 're2js';";
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(eager) || !existsSync(re2jsBuild)) throw new Error(`${args.path}: its import of re2js changed; update ${re2jsOnFirstPattern.name} in scripts/bundle.mjs`);
      const lazy = [
        "type RE2JS = import('re2js').RE2JS;",
        "let re2js: typeof import('re2js') | undefined;",
        `const RE2JS = { compile: (pattern: string): RE2JS => (re2js ??= require(${JSON.stringify(re2jsBuild)})).RE2JS.compile(pattern) };`,
      ].join(' ');
      return { contents: source.replace(eager, lazy), loader: 'ts' };
    });
  },
};

/**
 * Fastify's lib/server.js requires node:http2 and node:https at load, for the `http2` and `https`
 * options, which Hearth never sets (TLS is a proxy's job in front of it); loading them (and
 * compiling Node's own http2, https and tls modules) was ~5% of a restart's main thread, https and
 * tls a few ms more. The shims load each on first use only.
 */
const fastifyWithoutEagerHttp2 = {
  name: 'fastify-lazy-http2',
  setup(b) {
    b.onLoad({ filter: /[\\/]fastify[\\/]lib[\\/]server\.js$/ }, (args) => {
      const shims = [
        ["const http2 = require('node:http2')\n", "const http2 = { createSecureServer: (...args) => require('node:http2').createSecureServer(...args), createServer: (...args) => require('node:http2').createServer(...args) }\n"],
        ["const https = require('node:https')\n", "const https = { createServer: (...args) => require('node:https').createServer(...args) }\n"],
      ];
      let source = readFileSync(args.path, 'utf8');
      for (const [eager, lazy] of shims) {
        if (!source.includes(eager)) throw new Error(`${args.path}: fastify changed; update ${fastifyWithoutEagerHttp2.name} in scripts/bundle.mjs`);
        source = source.replace(eager, lazy);
      }
      return { contents: source, loader: 'js' };
    });
  },
};

/**
 * The stamp (src/package/validate/schema-names.ts) of schemas/ when the compiled validators were
 * generated from these very files, else undefined. With it in the bundle, a run whose schema files
 * are the ones seen here skips hashing them (a few ms of every `hearth plugin validate`); a run
 * where any of them changed, or was copied elsewhere, hashes them as before.
 */
async function schemasStampIfCompiled() {
  const names = await build({ absWorkingDir: root, entryPoints: ['src/package/validate/schema-names.ts'], bundle: true, write: false, format: 'esm', platform: 'node', logLevel: 'warning' });
  const { schemasDigest, schemasStamp } = await import(`data:text/javascript,${encodeURIComponent(names.outputFiles[0].text)}`);
  const dir = join(root, 'schemas');
  const compiled = /export const SCHEMAS_DIGEST = "([^"]*)";/.exec(readFileSync(join(root, 'src', 'package', 'validate', 'compiled-schemas.ts'), 'utf8'))?.[1];
  const stamp = schemasStamp(dir);
  return compiled === schemasDigest(dir) && stamp === schemasStamp(dir) ? stamp : undefined;
}

/**
 * `hearth plugin validate`'s own bundle: bin/hearth runs it for a command line starting with those
 * words. The whole command's bundle is 2.4 MB with a 1.5 MB code cache, and every run read and
 * deserialised all of it, and ran every command's module set-up, for a command that needs a fifth
 * of it (issue 30: a third of the run's CPU beyond a bare Node start).
 */
const validateOutfile = join(outdir, 'validate.cjs');
/** `hearth serve`'s own bundle (src/cli/serve-main.ts; serveExternal says what it holds beyond the others). */
const serveOutfile = join(outdir, 'serve.cjs');

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const bundledStamp = JSON.stringify(await schemasStampIfCompiled()) ?? 'undefined';
const result = await bundle('src/cli/main.ts', outfile);
await bundle('src/cli/validate-main.ts', validateOutfile);
await bundle('src/cli/serve-main.ts', serveOutfile, { external: serveExternal, plugins: [fastifyWithoutEagerHttp2] });

async function bundle(entry, outfile, own = { external, plugins: [] }) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    external: own.external,
    plugins: [yamlWithoutEnvLookups, commanderWithoutEagerChildProcess, re2jsOnFirstPattern, ...own.plugins],
    // Every import() becomes require(): a script run through vm.Script has no loader for import()
    // on Node 20 without experimental flags. The external packages all load through require()
    // (PGlite is an ES module without top-level await, which Node >= 20.19 requires directly).
    supported: { 'dynamic-import': false },
    // Our modules find Hearth's root from their own URL (src/package/root.ts): in the bundle that is
    // the bundle's URL, which bin/hearth passes in as __hearthUrl.
    define: { 'import.meta.url': '__hearthUrl', HEARTH_BUNDLED_SCHEMAS_STAMP: bundledStamp },
    legalComments: 'linked',
    // Whitespace and syntax only, names kept (stack traces still name functions): a third less to
    // read and copy into a string at every start (2.9 -> 2.0 MB).
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    metafile: true,
  });
  // bin/hearth reads the bundle as latin1, which is exact for ASCII and makes V8 keep the source as
  // a one-byte string (half the memory, no UTF-8 decoding). esbuild already escapes non-ASCII in
  // strings, regexes and identifiers; comments it keeps may still hold some, escaped here (a \u
  // escape is valid in any of those places, and in a comment it is only text).
  const code = readFileSync(outfile, 'utf8');
  // Without the u flag each UTF-16 unit is matched alone, so characters beyond U+FFFF become pairs.
  const ascii = code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // bin/hearth runs the bundle as the body of a function, as Node runs a CommonJS module (plus
  // __hearthUrl, see define above). The function is written into the file rather than wrapped
  // around the text by bin/hearth: then V8 compiles the very string the file was read into, where
  // the wrapped text had first to be joined into a new 2 MB string (2-3 ms of every start). Its
  // parentheses also make V8 compile it at once, so Node 22+'s compile cache holds it.
  writeFileSync(outfile, `${BUNDLE_FUNCTION_START}${ascii}\n})`);
  return result;
}
if (process.argv.includes('--metafile')) writeFileSync(join(outdir, 'meta.json'), JSON.stringify(result.metafile));

if (!process.argv.includes('--no-cache')) {
  // The warm-up (see warmUpCommands): bin/hearth runs its commands in one process, then writes
  // the code cache as it exits. A failure only costs speed: say so, go on.
  const scratch = mkdtempSync(join(tmpdir(), 'hearth-warm-up-'));
  try {
    let commands;
    try {
      commands = warmUpCommands(scratch);
    } catch (err) {
      process.stderr.write(`bundle: could not make the warm-up's plugins (${err.message}); warming up on the bundled release only\n`);
      const release = [['plugin', 'validate', join(root, 'release'), '--json']];
      commands = { whole: release, validate: release };
    }
    // Once for each bundle: bin/hearth chooses validate.cjs by the words the run starts with (the
    // warm-up then gives each command its own words), the whole command's bundle for any other.
    for (const [file, words, list] of [[outfile, [], commands.whole], [validateOutfile, ['plugin', 'validate'], commands.validate]]) {
      const run = spawnSync(process.execPath, [join(root, 'bin', 'hearth'), ...words], {
        cwd: root,
        env: { ...process.env, HEARTH_WRITE_CODE_CACHE: '1', HEARTH_NO_BUNDLE: '', HEARTH_WARM_UP: JSON.stringify(list) },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      // Exit status 1 is the spoilt plugins' errors, as intended; 2 and up is a failed command.
      if (run.status !== 0 && run.status !== 1) process.stderr.write(`bundle: the warm-up run of ${file} exited with ${run.status}; hearth works, but starts slower\n${run.stderr}`);
      else if (!existsSync(`${file}.v8-cache`)) process.stderr.write(`bundle: no code cache was written for ${file} (read-only folder?); hearth works, but starts slower\n`);
    }
    await warmUpServe(scratch).catch((err) => process.stderr.write(`bundle: the warm-up of ${serveOutfile} failed (${err.message}); hearth serve works, but starts slower\n`));
    if (!existsSync(`${serveOutfile}.v8-cache`)) process.stderr.write(`bundle: no code cache was written for ${serveOutfile}; hearth serve works, but starts slower\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * `hearth serve`'s warm-up: a first start on an empty data folder, stopped once ready, then the
 * restart whose code cache is kept (written as it exits): the code a restart runs up to its first
 * answers (the releases from the answer snapshot, the probes) and until the database is ready.
 * A first start's own work (creating the database, installing the release) stays out of the cache,
 * which every restart reads in full. `npm run build` makes dist/pgdata-template first, so that first
 * start restores it as a user's does (without it, PGlite runs initdb: slower, the same restart).
 */
async function warmUpServe(scratch) {
  const dataDir = join(scratch, 'serve-data');
  await serveOnce(dataDir, { HEARTH_CODE_CACHE: 'v8' });
  await serveOnce(dataDir, { HEARTH_WRITE_CODE_CACHE: '1' });
}

/** Runs `hearth serve` until it answers its first requests and is ready, then stops it (SIGTERM). */
async function serveOnce(dataDir, env) {
  const child = spawn(process.execPath, [join(root, 'bin', 'hearth'), 'serve', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', HEARTH_NO_BUNDLE: '', HEARTH_ADMIN_TOKEN: 'warm-up-token-0123456789abcdef', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  try {
    const url = await Promise.race([
      new Promise((resolve) => {
        const look = () => {
          const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) resolve(m[1]);
          else child.stdout.once('data', look);
        };
        look();
      }),
      exited.then((code) => Promise.reject(new Error(`it exited with ${code} before listening:\n${out}`))),
    ]);
    const until = async (path) => {
      for (;;) {
        const res = await fetch(url + path).catch(() => undefined);
        await res?.arrayBuffer();
        if (res?.ok) return;
        if (child.exitCode !== null) throw new Error(`it exited with ${child.exitCode}:\n${out}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    // As a client does: the data at once (a restart answers it from the snapshot), the probes beside it.
    await Promise.all([until('/api/v1/releases'), until('/healthz'), until('/readyz')]);
    await until('/api/v1/releases');
  } finally {
    child.kill('SIGTERM');
    await exited;
    clearTimeout(timer);
  }
}

/**
 * What the warm-up validates. V8 puts in the code cache only the functions the warm-up compiled;
 * any other is compiled again by every run that needs it (for a 4.0.0 plugin after a warm-up on
 * the release plugin alone, that was most of the checks' time). So: a plugin of each package
 * version and a release plugin, as `hearth plugin create` makes them; copies of two of them
 * spoilt the way real plugins are, so that findings are compiled too; and the bundled release.
 * All of it is made here, from the checkout alone. The whole command's bundle warms up on all of
 * it, validate.cjs on the 4.0.0 plugins only (see the end). Not `create` itself in the same
 * process: its code would only make the cache bigger, and a bigger cache is slower to load.
 */
function warmUpCommands(scratch) {
  const hearth = (...args) => {
    const r = spawnSync(process.execPath, [join(root, 'bin', 'hearth'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, HEARTH_NO_BUNDLE: '' } });
    if (r.status !== 0) throw new Error(`hearth ${args.join(' ')} exited with ${r.status}\n${r.stderr}`);
  };
  const made = [];
  for (const version of ['1.0.0', '2.0.0', '3.0.0', '4.0.0', '5.0.0']) {
    const name = `warm_up_${version.replace(/\./g, '_')}`;
    hearth('plugin', 'create', name, '--package-version', version, '--dir', scratch);
    made.push(join(scratch, name));
  }
  hearth('plugin', 'create', 'warm_up_release', '--release-plugin', '--dir', scratch);
  made.push(join(scratch, 'warm_up_release'));
  const spoilt = (from, name, edits) => {
    const dir = join(scratch, name);
    cpSync(join(scratch, from), dir, { recursive: true });
    for (const [file, text] of Object.entries(edits)) {
      if (text === null) rmSync(join(dir, file), { recursive: true, force: true });
      else appendFileSync(join(dir, file), text);
    }
    return dir;
  };
  const v4 = spoilt('warm_up_4_0_0', 'warm_up_spoilt_4', {
    repositories: null,
    'tasks.yaml': '- role: [warm_up_4_0_0_role]\n  stage: post_deployment/100\n  type: shell\n  parameters: {cmd: ./deploy.sh, timeout: 42}\n',
    'metadata.yaml': 'descripton: misspelt\n',
    'deployment_tasks.yaml': '- id: warm_up_extra\n  type: puppet\n  role: [warm_up_4_0_0_role, no_such_role]\n  requires: [no_such_task]\n  required_form: [deploy_end]\n  cross-depends: [{name: deploy_start}]\n  parameters: {puppet_manifest: site.pp, puppet_modules: ".", timeout: "3600"}\n',
  });
  const v5 = spoilt('warm_up_5_0_0', 'warm_up_spoilt_5', {
    deployment_scripts: null,
    'node_roles.yaml': 'other_role:\n  name: 7\n  descripton: misspelt\n  limits: {min: "1"}\n  restrictions:\n    - condition: "settings:warm_up.enabled == true and"\n',
    'components.yaml': '- name: network:neutron:ml2:warm_up\n  label: ML2 driver\n  requires: [{name: "hypervisor:nope:*"}]\n- name: Not A Name\n',
    'volumes.yaml': 'volumes_roles_mapping_extra: 1\n',
    'deployment_tasks.yaml': '- id: warm_up_group\n  type: group\n  roles: [warm_up_5_0_0_role]\n- id: warm_up_cycle_a\n  type: shell\n  version: 2.0.0\n  roles: [nowhere]\n  requires: [warm_up_cycle_b]\n- id: warm_up_cycle_b\n  type: shell\n  version: 2.0.0\n  roles: "/(unclosed/"\n  requires: [warm_up_cycle_a]\n',
  });
  const validating = (dirs) => dirs.flatMap((dir) => [
    ['plugin', 'validate', dir, '--json'],
    ['plugin', 'validate', dir],
  ]);
  return {
    whole: validating([...made, v4, v5, join(root, 'release')]),
    // validate.cjs's cache: one package version (4.0.0, the most common: 15 of the corpus's 34
    // plugins) and its spoilt copy. Every run deserialises the whole cache, and the other versions'
    // validators and a release plugin's checks were 0.44 MB of its 1.22 MB: a 1.0.0, 3.0.0 or 5.0.0
    // plugin compiling its own at first use spent less CPU than any run spent reading them all
    // (issue 30: lma-collector 99.0 -> 90.1 ms, block-device 94.3 -> 91.7, example_v5 101.9 -> 94.1,
    // example_v1 90.5 -> 84.2). A release plugin's checks are compiled by its own runs (one of
    // 0.9 s: 4% more).
    validate: validating([join(scratch, 'warm_up_4_0_0'), v4]),
  };
}
