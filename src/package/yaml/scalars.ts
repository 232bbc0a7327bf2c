/**
 * Scalars as PyYAML builds them: the implicit resolvers of yaml/resolver.py for plain scalars, and
 * the constructors of the explicit `!!int`, `!!float`, `!!bool` and `!!null` tags.
 */
// PyYAML's implicit resolvers (yaml/resolver.py), verbatim in meaning.
const BOOL_RE = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const TRUE_WORDS = new Set(['yes', 'true', 'on']);
const INT_RE = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT_RE =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const NULL_RE = /^(?:~|null|Null|NULL|)$/;
const TIMESTAMP_RE =
  /^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$/;

function sexagesimal(text: string): number {
  let value = 0;
  for (const part of text.split(':')) value = value * 60 + Number(part);
  return value;
}

export function constructInt(source: string): number {
  let text = source.replace(/_/g, '');
  let sign = 1;
  if (text[0] === '-') sign = -1;
  if (text[0] === '-' || text[0] === '+') text = text.slice(1);
  if (text === '0') return 0;
  if (text.startsWith('0b')) return sign * parseInt(text.slice(2), 2);
  if (text.startsWith('0x')) return sign * parseInt(text.slice(2), 16);
  if (text[0] === '0') return sign * parseInt(text, 8);
  if (text.includes(':')) return sign * sexagesimal(text);
  return sign * Number(text);
}

export function constructFloat(source: string): number {
  let text = source.replace(/_/g, '').toLowerCase();
  let sign = 1;
  if (text[0] === '-') sign = -1;
  if (text[0] === '-' || text[0] === '+') text = text.slice(1);
  if (text === '.inf') return sign * Infinity;
  if (text === '.nan') return NaN;
  if (text.includes(':')) return sign * sexagesimal(text);
  return sign * Number(text);
}

/** Resolve a plain (unquoted, untagged) scalar the way PyYAML's SafeLoader does. */
export function resolvePlainScalar(source: string): unknown {
  if (NULL_RE.test(source)) return null;
  if (BOOL_RE.test(source)) return TRUE_WORDS.has(source.toLowerCase());
  if (INT_RE.test(source)) return constructInt(source);
  if (FLOAT_RE.test(source)) return constructFloat(source);
  // Timestamps stay as their text: the data goes to JSON, where a date is a string anyway.
  if (TIMESTAMP_RE.test(source)) return source;
  return source;
}

/**
 * The value of a scalar with an explicit `!!int`, `!!float`, `!!bool` or `!!null` tag, built from its
 * text as PyYAML's constructors do (`!!float 1` is 1.0, `!!int '12'` is 12); `undefined` when those
 * constructors cannot read the text (PyYAML then refuses the file). `kind` is the tag's last part.
 */
export function constructTagged(kind: 'int' | 'float' | 'bool' | 'null', text: string): unknown {
  if (kind === 'null') return null;
  const plain = text.replace(/_/g, '');
  if (kind === 'bool') {
    const word = text.toLowerCase();
    if (['yes', 'true', 'on'].includes(word)) return true;
    if (['no', 'false', 'off'].includes(word)) return false;
    return undefined;
  }
  if (kind === 'int') {
    return /^[-+]?(?:0b[01]+|0x[0-9a-fA-F]+|0[0-7]+|[0-9]+|[1-9][0-9]*(?::[0-5]?[0-9])+)$/.test(plain) ? constructInt(plain) : undefined;
  }
  const readable =
    /^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/.test(plain) || /^[-+]?\.(?:inf|nan)$/i.test(plain) || /^[-+]?[0-9]+(?::[0-5]?[0-9])+(?:\.[0-9]*)?$/.test(plain);
  return readable ? constructFloat(plain) : undefined;
}
