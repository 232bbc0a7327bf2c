/**
 * Links that lead out of a plugin folder. A registered folder is used as it is on disk: its
 * repository is served to anyone who asks, its scripts are sent to every node. A link anywhere in
 * it to `/` or to the server's private key would hand those out (issue 24), so every link is
 * resolved, and one whose target lies outside the folder is an error naming it. A link to another
 * place inside the folder is fine. Hidden files count too: the repository route and rsync send them.
 *
 * The walk never follows a link (a target inside is walked as itself), visits each folder once by
 * real path, and is bounded in entries and depth. The places that read the files check each one
 * again when they read it (the repository route, copy_files, sync): a folder can change after it
 * was validated.
 */
import { readdirSync, readlinkSync, realpathSync, type Dirent } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { finding, type Finding } from '../../core/findings.js';

/** Entries (files, folders and links) the walk looks at before it stops and says so. */
export const MAX_LINK_WALK_ENTRIES = 200_000;
/** Folders deep. */
export const MAX_LINK_WALK_DEPTH = 64;

const within = (realRoot: string, real: string): boolean => real === realRoot || real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);

/** Where a link leads: its real target, or (dangling) its text resolved from its real folder. */
function targetOf(link: string): string {
  try {
    return realpathSync(link);
  } catch {
    // A dangling link leads nowhere today, but to whatever appears there tomorrow (a data
    // folder's key is written at the server's first start): judge the path it names.
    try {
      return resolve(realpathSync(dirname(link)), readlinkSync(link));
    } catch {
      return link;
    }
  }
}

/**
 * A `path/link-outside-plugin` error for each link under `root` whose target is outside it, and a
 * `path/tree-too-large` warning when the walk had to stop. `skip`: files already reported.
 */
export function linksLeavingPlugin(root: string, skip: ReadonlySet<string> = new Set()): Finding[] {
  const findings: Finding[] = [];
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return findings; // no folder: the loader says so
  }
  const seen = new Set<string>();
  let entries = 0;
  let stopped = false;
  const walk = (dir: string, rel: string, depth: number): void => {
    if (stopped || seen.has(dir)) return;
    seen.add(dir);
    if (depth > MAX_LINK_WALK_DEPTH) {
      stopped = true;
      findings.push(finding('path/tree-too-large', 'warning', `'${rel}' is more than ${MAX_LINK_WALK_DEPTH} folders deep; the folders below it were not checked for links leading out of the plugin`, { file: rel }, 'flatten the folder tree'));
      return;
    }
    let list: Dirent[];
    try {
      list = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // unreadable: the loader and the builder say so where it matters
    }
    for (const entry of list) {
      if (++entries > MAX_LINK_WALK_ENTRIES) {
        stopped = true;
        findings.push(finding('path/tree-too-large', 'warning', `the plugin folder has more than ${MAX_LINK_WALK_ENTRIES.toLocaleString('en')} files and folders; the rest were not checked for links leading out of it (Hearth still refuses to serve or send any such link)`, { file: rel || '.' }, 'keep large package mirrors outside the plugin'));
        return;
      }
      const path = join(dir, entry.name);
      const shown = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isSymbolicLink()) {
        if (!skip.has(shown) && !within(realRoot, targetOf(path))) {
          findings.push(
            finding(
              'path/link-outside-plugin',
              'error',
              `'${shown}' is a link to a place outside the plugin folder; Hearth would serve or send whatever it leads to`,
              { file: shown, line: 1, column: 1 },
              'copy what it needs into the plugin folder, or make the link point inside it',
            ),
          );
        }
      } else if (entry.isDirectory()) walk(path, shown, depth + 1);
    }
  };
  walk(realRoot, '', 0);
  return findings;
}
