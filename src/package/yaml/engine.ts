/**
 * The parser of the `yaml` package, taken from its browser build. Its Node build reads
 * process.env.LOG_TOKENS for every token and process.env.LOG_STREAM for every document, each a
 * call into Node's environment; over the corpus that was about a sixth of parsing time. The browser
 * build is the same code without those reads. Its package does not export that path, so it is
 * required by file (an ES module: Node >= 20.19 requires it directly); should that fail, the Node
 * build does the same work. The CLI bundle replaces this module with a static import of the
 * browser build (scripts/bundle.mjs).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Yaml from 'yaml';

type Parsing = Pick<typeof Yaml, 'parseAllDocuments' | 'LineCounter'>;

function load(): Parsing {
  const require = createRequire(import.meta.url);
  try {
    const browser = require(join(dirname(require.resolve('yaml/package.json')), 'browser', 'index.js')) as Parsing;
    if (typeof browser.parseAllDocuments === 'function' && typeof browser.LineCounter === 'function') return browser;
  } catch {
    // fall through to the Node build
  }
  return require('yaml') as Parsing;
}

export const { parseAllDocuments, LineCounter } = load();
