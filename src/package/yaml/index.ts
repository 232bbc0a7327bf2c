export { parseYaml, resolvePlainScalar, type ParsedYaml, type YamlParseOptions } from './parse.js';
export { readYamlFile, parseYamlBytes, type ReadOptions } from './read.js';
