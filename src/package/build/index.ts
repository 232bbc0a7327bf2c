/**
 * Plugin packages: build one from a plugin folder, and read one back safely. The server installs
 * packages through `readPackage`, the same strict reader `hearth plugin inspect` uses.
 */
export { buildPlugin, type BuildOptions, type BuildResult, type BuildEvent, type BuildStep, type PluginValidator, type ValidationOutcome } from './build.js';
export { readPackage, verifyEntries, type ReadPackageOptions, type ReadPackageResult } from './read.js';
export { inspectPackage, summarisePlugin, type InspectResult, type PackageSummary } from './inspect.js';
export { MANIFEST_FORMAT, type PackageManifest, type ManifestRelease } from './manifest.js';
export { MANIFEST_FILE, collectPluginFiles, isSkippedName } from './files.js';
export { DEFAULT_TAR_LIMITS, FIXED_EPOCH, reproducibleMtime, readTarGz, writeTarGz, writeTar, TarError, type TarEntry, type TarLimits, type ReadEntry } from './tar.js';
