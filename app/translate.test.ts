// The pages' translate function (translate.ts) must give exactly what i18next gives, configured as
// the server configures it (i18n.server.ts), for every text in both languages: a difference would
// show the wrong words, or make React throw the server's page away when the browser hydrates it.
import { describe, expect, it, vi } from "vitest";
import { i18nFor, languageResources } from "./i18n.server.ts";
import { supportedLanguages } from "./i18n.ts";
import { createTranslate, type Texts, usedTexts } from "./translate.ts";

/** Every key of a namespace, as components write it: nested with dots, without plural suffixes. */
function keys(tree: unknown, prefix = ""): string[] {
  if (!tree || typeof tree !== "object" || Array.isArray(tree)) return [prefix];
  return Object.entries(tree).flatMap(([key, value]) => keys(value, prefix ? `${prefix}.${key}` : key));
}
const bare = (key: string) => key.replace(/_(zero|one|two|few|many|other)$/, "");

// Values for every variable the texts name, and counts that pick each plural form.
const values = {
  name: "Dr Ada Lovelace",
  date: "24/11/2026",
  time: "09:30",
  when: "tomorrow",
  doctor: "Dr Who",
  app: "Health",
  patient: "Pat",
  code: "123456",
  zone: "Europe/Paris",
  to: "B",
  from: "A",
  reason: "Fever: 3 days",
  email: "a@b.c",
  total: 7,
  status: "confirmed",
  speciality: "Cardiology",
  serial: "42",
  proposals: 2,
  place: "Paris",
  page: 3,
  n: 4,
  language: "English",
  before: "B",
};
const counts = [0, 1, 2, 5, 1000, 1234567, 1.5];

describe("createTranslate gives what i18next gives", () => {
  for (const language of supportedLanguages) {
    const texts = languageResources[language] as Texts;
    const t = createTranslate(language, texts);
    const reference = i18nFor(language).t as (key: string, options?: object) => unknown;

    it(`every ${language} text, bare, with values and with every count`, () => {
      let checked = 0;
      for (const [ns, tree] of Object.entries(texts)) {
        for (const key of new Set(keys(tree).map(bare))) {
          const full = `${ns}:${key}`;
          for (const options of [undefined, values, ...counts.map((count) => ({ ...values, count }))]) {
            expect(t(full, options as never), `${full} ${JSON.stringify(options)}`).toEqual(reference(full, options));
            checked++;
          }
          // Without a namespace, the default one (common).
          if (ns === "common") expect(t(key, values as never)).toEqual(reference(key, values));
        }
      }
      expect(checked).toBeGreaterThan(1000);
    });

    it(`lists (returnObjects) and defaults, in ${language}`, () => {
      for (const key of ["common:legal.terms.body", "common:legal.privacy.body"]) {
        const list = t(key, { returnObjects: true });
        expect(Array.isArray(list) && list.length > 0).toBe(true);
        expect(list).toEqual(reference(key, { returnObjects: true }));
      }
      for (const [key, options] of [
        ["doctor:consultationType.unknown-kind", { defaultValue: "unknown-kind" }],
        ["doctor:consultationType.followUp", { defaultValue: "followUp" }],
        ["common:nothing.here", { defaultValue: "Plain {{name}}", name: "value" }],
      ] as const) {
        expect(t(key, options as never)).toEqual(reference(key, options));
      }
    });

    it(`missing keys and messages that are not keys, in ${language}`, () => {
      for (const key of [
        "common:no.such.key",
        "patient:nope",
        "nope",
        "unknownNamespace:some.key",
        "Required",
        "Invalid input: expected string, received undefined",
        "Too small: expected string to have >=8 characters",
        "a:b:c",
        "common:legal.terms",
        "{{name}} is missing",
        "",
      ]) {
        expect(t(key, values as never), key).toEqual(reference(key, values));
        expect(t(key), key).toEqual(reference(key));
      }
    });

    it(`a list of keys gives the first that has a text, in ${language}`, () => {
      for (const key of [
        ["common:bell.kinds.patient.appointment_confirmed", "common:bell.kinds.other"],
        ["common:bell.kinds.patient.no_such_kind", "common:bell.kinds.other"],
        ["patient:access.what.read_appointment", "patient:access.what.read", "patient:access.what.other"],
        ["patient:access.what.nothing_here", "patient:access.what.update", "patient:access.what.other"],
        ["patient:access.what.nothing_here", "patient:access.what.nothing", "patient:access.what.other"],
        ["common:no.such.key", "common:no.other.key"],
      ]) {
        expect(t(key as never, values as never), key.join(" | ")).toEqual(reference(key as never, values));
        expect(t(key as never, { ...values, count: 2 } as never), key.join(" | ")).toEqual(
          reference(key as never, { ...values, count: 2 }),
        );
      }
    });

    it(`a variable left out stays as written, one given as undefined is empty, in ${language}`, () => {
      for (const key of ["common:legal.terms.title", "patient:doctors.foundMoreThan"]) {
        expect(t(key, {} as never)).toEqual(reference(key, {}));
        expect(t(key, { count: undefined } as never)).toEqual(reference(key, { count: undefined }));
      }
    });
  }

  // Lookups are remembered per texts object: another object (the other language, a page's own
  // texts, the whole texts arriving) answers from its own texts, and every render still records
  // what it used, remembered or not.
  it("remembers lookups per texts object, never across them", () => {
    const one = { common: { greeting: "Hello {{name}}", nested: { deep: "Deep" } } };
    const other = { common: { greeting: "Bonjour {{name}}" } };
    for (let i = 0; i < 2; i++) {
      expect(createTranslate("en", one)("common:greeting" as never, { name: "Ada" } as never)).toBe("Hello Ada");
      expect(createTranslate("fr", other)("common:greeting" as never, { name: "Ada" } as never)).toBe("Bonjour Ada");
      expect(createTranslate("fr", other)("common:nested.deep" as never)).toBe("nested.deep");
      const used = usedTexts();
      expect(createTranslate("en", one, used.record)("common:nested.deep" as never)).toBe("Deep");
      expect(used.texts).toEqual({ common: { "nested.deep": "Deep" } });
    }
  });

  it("makes no plural rules per call", () => {
    const t = createTranslate("fr", languageResources.fr as Texts);
    t(["common:no.such.key", "patient:doctors.found"] as never, { count: 2 } as never);
    const made = vi.spyOn(Intl, "PluralRules");
    t(["common:no.such.key", "patient:doctors.found"] as never, { count: 3 } as never);
    t("patient:doctors.found" as never, { count: 1 } as never);
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
  });

  // A page carries only the texts its server render looked up (app/page-texts.ts): translating the
  // same calls over those must give the same words, or the browser's hydration would differ.
  for (const language of supportedLanguages) {
    it(`the texts a render recorded give the same words, in ${language}`, () => {
      const texts = languageResources[language] as Texts;
      const calls: [string | string[], object | undefined][] = [];
      for (const [ns, tree] of Object.entries(texts)) {
        for (const key of new Set(keys(tree).map(bare))) {
          for (const options of [undefined, values, ...counts.map((count) => ({ ...values, count }))])
            calls.push([`${ns}:${key}`, options]);
        }
      }
      calls.push(
        ["common:legal.terms.body", { returnObjects: true }],
        ["common:no.such.key", undefined],
        ["doctor:consultationType.unknown-kind", { defaultValue: "unknown-kind" }],
        [["patient:access.what.nothing_here", "patient:access.what.update", "patient:access.what.other"], values],
        [["common:bell.kinds.patient.no_such_kind", "common:bell.kinds.other"], { ...values, count: 2 }],
      );
      // One call at a time, as a page that shows a single text: its record must suffice on its own.
      let smaller = 0;
      for (const [key, options] of calls) {
        const used = usedTexts();
        const expected = createTranslate(language, texts, used.record)(key as never, options as never);
        expect(
          createTranslate(language, used.texts)(key as never, options as never),
          `${key} ${JSON.stringify(options)}`,
        ).toEqual(expected);
        if (JSON.stringify(used.texts).length < 500) smaller++;
      }
      expect(smaller).toBe(calls.length);
      // And all of them over one record, as a page with many texts.
      const used = usedTexts();
      const recording = createTranslate(language, texts, used.record);
      const expected = calls.map(([key, options]) => recording(key as never, options as never));
      const partial = createTranslate(language, used.texts);
      expect(calls.map(([key, options]) => partial(key as never, options as never))).toEqual(expected);
    });

    it(`in ${language}, over a page's texts while the whole texts are on their way, shows nothing for a text the page did not carry, never its key`, () => {
      const texts = languageResources[language] as Texts;
      const used = usedTexts();
      const carried = createTranslate(language, texts, used.record)("common:nav.logout" as never);
      const waiting = createTranslate(language, used.texts, undefined, true);
      expect(waiting("common:nav.logout" as never)).toBe(carried);
      expect(carried).not.toBe("nav.logout");
      expect(waiting("auth:login.title" as never)).toBe("");
      expect(waiting("doctor:consultationType.unknown-kind" as never, { defaultValue: "unknown-kind" } as never)).toBe(
        "unknown-kind",
      );
      // Once they are here, the same key gives its text.
      expect(createTranslate(language, texts, undefined, false)("auth:login.title" as never)).not.toMatch(
        /^(|login\.title)$/,
      );
    });
  }
});
