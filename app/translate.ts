// The pages' translate function: the part of i18next's `t()` the screens use, over the texts of one
// language, in about 1 KB instead of i18next's 15 KB gzip in every page's first-load JavaScript
// (docs/decisions/0016-pages-translate-without-i18next-in-the-browser.md). i18next stays the
// reference: translate.test.ts checks this function against an i18next instance configured as
// i18n.ts configured it, for every text of every namespace in both languages.
//
// What it does, as i18next does it with the options the app used (`ns:key.path`, nested JSON, `{{value}}`
// and `{{value, number}}` without escaping, plurals through Intl.PluralRules with `_zero` first when
// count is 0, `defaultValue`, `returnObjects` for lists): nothing more. A missing text shows its key
// (without the namespace), as i18next shows it; over a page's partial texts it is empty until the
// whole texts arrive (`partial` below).
import type { TFunction } from "i18next";
import { remembered } from "../contract/remembered.ts";

/** One language's texts: namespace → nested JSON of strings (or lists of strings). */
export type Texts = Record<string, unknown>;

interface Options {
  count?: number | string;
  defaultValue?: string;
  returnObjects?: boolean;
  [value: string]: unknown;
}

const defaultNamespace = "common";
// i18next reads "Sorry: try again." as a sentence, not as namespace "Sorry": a key with one of these
// characters before its first dot is never split on ":".
const sentence = /[ ,?!;]/;

// A page looks up a few hundred texts, the same ones on every page: a key's split and a path's
// lookup in a language's (immutable) texts are made once, then remembered (contract/remembered.ts).
// The keys are the code's own, so the memories stay small; the limit only guards against keys made of data.
const CACHE_LIMIT = 10_000;
const splitKeys = remembered<{ ns: string; path: string }>(CACHE_LIMIT);
const splitKey = (key: string) => splitKeys(key, () => splitKeyOnce(key));

function splitKeyOnce(key: string): { ns: string; path: string } {
  const colon = key.indexOf(":");
  if (colon < 0) return { ns: defaultNamespace, path: key };
  const dot = key.indexOf(".");
  const looksLikePath = !sentence.test(key) || (dot > 0 && !sentence.test(key.slice(0, dot)));
  if (!looksLikePath || /\$t\(/.test(key)) return { ns: defaultNamespace, path: key };
  const [ns, ...rest] = key.split(":");
  return { ns, path: rest.join(".") };
}

// Per namespace tree (texts are never changed once loaded: a new language's texts are new objects).
const lookups = new WeakMap<object, (path: string, make: () => unknown) => unknown>();

/** `find`, remembered per tree (a missing text is looked for again: it is the rare case). */
function findOnce(tree: unknown, path: string): unknown {
  if (!tree || typeof tree !== "object") return undefined;
  let found = lookups.get(tree);
  if (!found) lookups.set(tree, (found = remembered<unknown>(CACHE_LIMIT)));
  return found(path, () => find(tree, path));
}

/** i18next's lookup: a flat key first, then a dotted path through nested objects. */
function find(tree: object, path: string): unknown {
  const node = tree as Record<string, unknown>;
  if (Object.hasOwn(node, path) && node[path]) return node[path];
  let current: unknown = node;
  const tokens = path.split(".");
  for (let i = 0; i < tokens.length; ) {
    if (!current || typeof current !== "object") return undefined;
    let next: unknown;
    let nextPath = "";
    let j = i;
    for (; j < tokens.length; ++j) {
      nextPath += (j !== i ? "." : "") + tokens[j];
      next = Object.hasOwn(current, nextPath) ? (current as Record<string, unknown>)[nextPath] : undefined;
      if (next !== undefined) {
        if (["string", "number", "boolean"].includes(typeof next) && j < tokens.length - 1) continue;
        break;
      }
    }
    i = j + 1;
    current = next;
  }
  return current;
}

const plurals = new Map<string, Intl.PluralRules>();
const numbers = new Map<string, Intl.NumberFormat>();

function pluralRules(language: string): Intl.PluralRules {
  let rules = plurals.get(language);
  if (!rules) plurals.set(language, (rules = new Intl.PluralRules(language)));
  return rules;
}

function interpolate(text: string, options: Options, language: string): string {
  if (!text.includes("{{")) return text;
  return text.replace(/\{\{(.+?)\}\}/g, (match, inner: string) => {
    const [name, format] = inner.split(",").map((part) => part.trim());
    const value = options[name];
    // As i18next: an option given as undefined empties the place, a missing one leaves it as written.
    if (value === undefined) return Object.hasOwn(options, inner.trim()) ? "" : match;
    if (format === "number") {
      let formatter = numbers.get(language);
      if (!formatter) numbers.set(language, (formatter = new Intl.NumberFormat(language)));
      return formatter.format(value as number);
    }
    return value == null ? "" : String(value);
  });
}

/**
 * Told of every text a translate function found (namespace, path as looked up, value): the server
 * render collects them so the page carries only the texts it shows (see `usedTexts`).
 */
export type TextRecorder = (ns: string, path: string, value: unknown) => void;

/**
 * Collects the texts a render found, as one language's texts with flat keys (`{ ns: { "a.b": … } }`):
 * looked up the same way, they give what the whole texts gave, since a flat key is found first.
 */
export function usedTexts(): { record: TextRecorder; texts: Record<string, Record<string, unknown>> } {
  const texts: Record<string, Record<string, unknown>> = {};
  const record: TextRecorder = (ns, path, value) => {
    texts[ns] ??= {};
    texts[ns][path] = value;
  };
  return { record, texts };
}

/**
 * The translate function of one language over its texts, as components call it. `partial`: the
 * texts are only those a page carried (app/page-texts.ts) and the whole texts are on their way; a
 * text not among them is empty until they arrive (the root renders again then), never its key.
 */
export function createTranslate(language: string, texts: Texts, record?: TextRecorder, partial = false): TFunction {
  function lookUp(ns: string, path: string): unknown {
    const found = findOnce(texts[ns], path);
    if (record && found !== undefined) record(ns, path, found);
    return found;
  }
  function translate(key: string | string[], options: Options = {}): unknown {
    // A list of keys is tried in order, the first that has a text wins (the bell's and the access
    // log's wording falls back from the precise key to a general one); none found: the last one.
    if (Array.isArray(key)) {
      const known = key.find((k, i) => i === key.length - 1 || has(k, options));
      return translate(known ?? "", options);
    }
    const { ns, path } = splitKey(String(key));
    const { count } = options;
    let found: unknown;
    if (count !== undefined && typeof count !== "string") {
      if (count === 0) found = lookUp(ns, `${path}_zero`);
      if (found === undefined) found = lookUp(ns, `${path}_${pluralRules(language).select(count)}`);
    }
    if (found === undefined) found = lookUp(ns, path);
    if (Array.isArray(found) && options.returnObjects) {
      return found.map((item, i) =>
        typeof item === "string" ? interpolate(item, options, language) : translate(`${ns}:${path}.${i}`, options),
      );
    }
    if (found !== null && typeof found === "object")
      return `key '${path} (${language})' returned an object instead of string.`;
    const text =
      found === undefined || found === null ? (options.defaultValue ?? (partial ? "" : path)) : String(found);
    return interpolate(text, options, language);
  }
  function has(key: string, options: Options): boolean {
    const { ns, path } = splitKey(key);
    const { count } = options;
    const forms =
      count !== undefined && typeof count !== "string"
        ? [`${path}_zero`, `${path}_${pluralRules(language).select(count)}`]
        : [];
    return [...forms, path].some((p) => lookUp(ns, p) != null);
  }
  return translate as unknown as TFunction;
}
