/**
 * OpenStack/Fuel release versions as Fuel wrote them: `2015.1.0-7.0` (OpenStack version, then the
 * Fuel version), `liberty-8.0` (OpenStack code name, then Fuel), `9.0` (Fuel only), `2014.2`
 * (OpenStack only). Code names and year-based versions are the same axis (kilo = 2015.1,
 * liberty = 2015.2), so `2015.1.0-7.0` < `liberty-8.0` < `mitaka-9.0` < `newton-10.0`.
 */

/** OpenStack code names in release order, with their year-based version (year, half). */
const CODE_NAMES: ReadonlyArray<readonly [string, number, number]> = [
  ['austin', 2010, 1], ['bexar', 2011, 1], ['cactus', 2011, 2], ['diablo', 2011, 3],
  ['essex', 2012, 1], ['folsom', 2012, 2], ['grizzly', 2013, 1], ['havana', 2013, 2],
  ['icehouse', 2014, 1], ['juno', 2014, 2], ['kilo', 2015, 1], ['liberty', 2015, 2],
  ['mitaka', 2016, 1], ['newton', 2016, 2], ['ocata', 2017, 1], ['pike', 2017, 2],
  ['queens', 2018, 1], ['rocky', 2018, 2], ['stein', 2019, 1], ['train', 2019, 2],
  ['ussuri', 2020, 1], ['victoria', 2020, 2], ['wallaby', 2021, 1], ['xena', 2021, 2],
  ['yoga', 2022, 1], ['zed', 2022, 2],
  // From 2023 OpenStack numbers its releases by year (2023.1 is antelope); the names go on.
  ['antelope', 2023, 1], ['bobcat', 2023, 2], ['caracal', 2024, 1], ['dalmatian', 2024, 2],
  ['epoxy', 2025, 1], ['flamingo', 2025, 2], ['gazpacho', 2026, 1],
];
const byCodeName = new Map(CODE_NAMES.map(([name, year, half]) => [name, [year, half]]));

export interface ReleaseVersion {
  /** The text as written. */
  text: string;
  /** OpenStack side as numbers (`liberty` → [2015, 2]; `2015.1.0` → [2015, 1, 0]). */
  os?: number[];
  /** The code name when written as one (`liberty`), or an unknown word kept for equality only. */
  osName?: string;
  /** Fuel side as numbers (`8.0` → [8, 0]). */
  fuel?: number[];
}

/** What a bare number (`9.0`, `2014.2`) means when the text has no `-` to tell. */
export type BareNumberMeaning = 'fuel' | 'os' | 'guess';

const NUMERIC = /^\d+(?:\.\d+)*$/;

function numbers(text: string): number[] {
  return text.split('.').map((part) => Number(part));
}

/**
 * Parse a release version. Returns undefined when the text is not one (empty, spaces, symbols).
 * `bare` says whether a lone number is a Fuel or an OpenStack version; `guess` takes numbers from
 * 2000 on as OpenStack years and smaller ones as Fuel versions.
 */
export function parseReleaseVersion(input: string, bare: BareNumberMeaning = 'guess'): ReleaseVersion | undefined {
  const text = String(input).trim();
  if (text === '') return undefined;
  if (NUMERIC.test(text)) {
    const parts = numbers(text);
    const meaning = bare === 'guess' ? (parts[0] >= 2000 ? 'os' : 'fuel') : bare;
    return meaning === 'os' ? { text, os: parts } : { text, fuel: parts };
  }
  const dash = text.lastIndexOf('-');
  if (dash <= 0 || dash === text.length - 1) {
    const named = byCodeName.get(text.toLowerCase());
    if (named) return { text, os: [...named], osName: text.toLowerCase() };
    return undefined;
  }
  const left = text.slice(0, dash);
  const right = text.slice(dash + 1);
  if (!NUMERIC.test(right)) return undefined;
  const fuel = numbers(right);
  if (NUMERIC.test(left)) return { text, os: numbers(left), fuel };
  const named = byCodeName.get(left.toLowerCase());
  if (named) return { text, os: [...named], osName: left.toLowerCase(), fuel };
  // An unknown word (`test-1.0.0`, `ExampleRelease-1.0`): comparable by its Fuel side only.
  if (/^[A-Za-z][\w.]*$/.test(left)) return { text, osName: left.toLowerCase(), fuel };
  return undefined;
}

/** Compare number lists, padding the shorter with zeros (`8` = `8.0` = `8.0.0`). */
export function compareNumbers(a: readonly number[], b: readonly number[]): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** True when `prefix`'s numbers are the leading numbers of `full` (`2014.2` covers `2014.2.2`). */
export function numbersStartWith(full: readonly number[], prefix: readonly number[]): boolean {
  if (prefix.length > full.length) return compareNumbers(full, prefix) === 0;
  return prefix.every((n, i) => full[i] === n);
}

/**
 * Order two release versions on the sides both of them have: Fuel first (a Fuel release ships
 * one OpenStack), then OpenStack. Returns undefined when they share no comparable side.
 */
export function compareReleaseVersions(a: ReleaseVersion, b: ReleaseVersion): number | undefined {
  let compared = false;
  if (a.fuel && b.fuel) {
    const d = compareNumbers(a.fuel, b.fuel);
    if (d !== 0) return d;
    compared = true;
  }
  if (a.os && b.os) {
    const d = compareNumbers(a.os, b.os);
    if (d !== 0) return d;
    compared = true;
  } else if (a.osName && b.osName && !a.os && !b.os) {
    if (a.osName !== b.osName) return a.osName < b.osName ? -1 : 1;
    compared = true;
  }
  return compared ? 0 : undefined;
}

/** A total order for sorting (versions without a shared side fall back to their text). */
export function sortReleaseVersions(texts: readonly string[]): string[] {
  return [...texts].sort((x, y) => {
    const a = parseReleaseVersion(x);
    const b = parseReleaseVersion(y);
    const d = a && b ? compareReleaseVersions(a, b) : undefined;
    return d ?? x.localeCompare(y);
  });
}
