/**
 * The TypeScript types of the API's requests and answers, generated from its OpenAPI document with
 * openapi-typescript into src/api/schema.ts, which the web UI and the CLI client import.
 *
 *   node --import tsx scripts/api-types.ts           write src/api/schema.ts (npm run api:types)
 *   node --import tsx scripts/api-types.ts --check   exit 1 when the committed file differs from
 *                                                    what the document gives (npm run build runs it)
 *   --file <path>                                    another file than src/api/schema.ts (tests)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { apiDocument } from '../src/server/api-document.js';

export const SCHEMA_FILE = join(import.meta.dirname, '..', 'src', 'api', 'schema.ts');
const COMMAND = 'npm run api:types';

const HEADER = `/**
 * The API's requests and answers as TypeScript types: GENERATED from /api/v1/openapi.json by
 * \`${COMMAND}\` (scripts/api-types.ts); do not edit. \`npm run build\` fails when this file and
 * the document drift apart. Import it through src/api/client.ts.
 */
`;

export async function generatedTypes(): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(await apiDocument())), { alphabetize: true });
  return `${HEADER}\n${astToString(ast)}`;
}

/** Why `file` is not what the document gives (`expected`), naming the command that fixes it; undefined when it is. */
export function driftOf(file: string, expected: string): string | undefined {
  let committed: string;
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    return `${file} is missing: the API's TypeScript types are generated from the OpenAPI document. Run \`${COMMAND}\` and commit the file.`;
  }
  if (committed === expected) return undefined;
  let at = 0;
  while (at < expected.length && committed[at] === expected[at]) at++;
  const line = expected.slice(0, at).split('\n').length;
  return `${file}:${line}: the API's TypeScript types differ from the OpenAPI document (a route's schema changed, or the file was edited). Run \`${COMMAND}\` and commit the file.`;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--file');
  const file = at >= 0 ? args[at + 1] : SCHEMA_FILE;
  const text = await generatedTypes();
  if (!args.includes('--check')) {
    writeFileSync(file, text);
    process.stdout.write(`wrote ${file}\n`);
    return 0;
  }
  const drift = driftOf(file, text);
  if (drift) process.stderr.write(`${drift}\n`);
  return drift ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => process.exit(code),
    (err: Error) => {
      process.stderr.write(`api-types: ${err.stack ?? err.message}\n`);
      process.exit(2);
    },
  );
}
