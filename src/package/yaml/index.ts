export { parseYaml, resolvePlainScalar, type ParsedYaml, type YamlParseOptions } from './parse.js';
export { readYamlFile, parseYamlBytes, readFailure, type ReadOptions } from './read.js';
