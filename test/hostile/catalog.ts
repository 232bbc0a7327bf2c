/** Every hostile case, by face. `catalog.test.ts` runs them; `table.ts` prints them for docs/reliability.md. */
import type { HostileCase } from './case.js';
import { pluginFolderCases } from './cases/plugin-folders.js';
import { libraryCases } from './cases/library.js';
import { cliCases } from './cases/cli.js';
import { hardeningCases } from './cases/hardening.js';

export const catalog: HostileCase[] = [...pluginFolderCases, ...cliCases, ...libraryCases, ...hardeningCases];
