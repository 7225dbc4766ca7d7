// The language of a request (i18n.server.ts detectLanguage): the cookie first, then Accept-Language,
// then English. Detection is remembered per pair of headers: a request must still get its own
// headers' language, whatever requests came before it.
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { detectLanguage, getLanguage } from "./i18n.server.ts";

async function languageOf(headers: Record<string, string>) {
  const context = new RouterContextProvider();
  await detectLanguage(new Request("http://localhost/login", { headers }), context);
  return getLanguage(context);
}

const cases: [Record<string, string>, string][] = [
  [{}, "en"],
  [{ cookie: "i18nextLng=fr" }, "fr"],
  [{ cookie: "i18nextLng=en" }, "en"],
  [{ cookie: "other=1; i18nextLng=fr; more=2" }, "fr"],
  [{ "accept-language": "fr-CA,en;q=0.5" }, "fr"],
  [{ "accept-language": "de" }, "en"],
  [{ "accept-language": "fr", cookie: "i18nextLng=en" }, "en"],
  [{ "accept-language": "en", cookie: "i18nextLng=fr" }, "fr"],
  // A language the app does not have in the cookie: the header decides.
  [{ "accept-language": "fr", cookie: "i18nextLng=de" }, "fr"],
  [{ "accept-language": "*" }, "en"],
];

describe("detectLanguage", () => {
  it("gives each request its own headers' language, in any order and again", async () => {
    for (const round of [cases, [...cases].reverse(), cases]) {
      for (const [headers, expected] of round)
        expect(await languageOf(headers), JSON.stringify(headers)).toBe(expected);
    }
  });

  it("stays right when many different headers have come", async () => {
    for (let i = 0; i < 2_500; i++) await languageOf({ "accept-language": `x${i},fr;q=0.5` });
    for (const [headers, expected] of cases) expect(await languageOf(headers), JSON.stringify(headers)).toBe(expected);
  });
});
