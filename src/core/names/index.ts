/**
 * A plugin's name and version, as they may be written anywhere: in metadata.yaml, a package's
 * manifest, a package file's name, the plugin's id (`name@version`), and a URL path segment. One
 * pattern for each, checked by `plugin validate` (the metadata schemas use these same patterns),
 * `plugin build`, the package reader, and the server before anything is stored: a version like
 * `0/../../clusters/2` once validated, installed from a folder, and turned the web UI's Uninstall
 * into `DELETE /api/v1/clusters/2`.
 */

/** Fuel's own rule for plugin names: lower-case letters, digits, `_` and `-`. */
export const PLUGIN_NAME_PATTERN = '^[a-z0-9_-]+$';
/** A version starts with a letter or a digit and holds letters, digits, `.`, `_`, `+`, `~` and `-`: never `/`, never `.` or `..` alone. */
export const PLUGIN_VERSION_PATTERN = '^[0-9A-Za-z][0-9A-Za-z._+~-]*$';
/** Each, so a plugin id (`name@version`, at most 129 characters) fits a URL segment the server accepts. */
export const MAX_PLUGIN_NAME_LENGTH = 64;

const NAME = new RegExp(PLUGIN_NAME_PATTERN);
const VERSION = new RegExp(PLUGIN_VERSION_PATTERN);

export const isPluginName = (name: unknown): name is string => typeof name === 'string' && name.length <= MAX_PLUGIN_NAME_LENGTH && NAME.test(name);
export const isPluginVersion = (version: unknown): version is string => typeof version === 'string' && version.length <= MAX_PLUGIN_NAME_LENGTH && VERSION.test(version);

/** Why a name and version cannot identify a plugin (a sentence), or undefined when both are fine. */
export function pluginIdentityProblem(name: unknown, version: unknown): string | undefined {
  if (!isPluginName(name)) return `the plugin name ${JSON.stringify(name)} is not lower-case letters, digits, "_" and "-" (at most ${MAX_PLUGIN_NAME_LENGTH} characters)`;
  if (!isPluginVersion(version)) return `the plugin version ${JSON.stringify(version)} is not a plain version such as 1.0.0 (letters, digits, ".", "_", "+", "~", "-", starting with a letter or digit, at most ${MAX_PLUGIN_NAME_LENGTH} characters)`;
  return undefined;
}
