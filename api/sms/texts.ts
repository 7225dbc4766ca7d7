// What a text message says (docs/sms.md): one SMS each, in GSM-7, the alphabet every phone and
// operator reads in full, so 160 characters fit one message. French letters outside it lose their
// accent (ê -> e, ç -> c; é, è, à, ù keep theirs, GSM-7 has them), typographic signs become plain
// ones. The texts live in locales/{en,fr}/mail.json under "sms", beside the mail's; they hold the
// clinic date and time and a link, never a speciality, a diagnosis or other health data.
import { mailText, type Locale } from "../mail/templates.ts";

// GSM 03.38: the basic table (one septet each) and its extension (two: escape and the sign).
const BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const EXTENSION = "^{}\\[~]|€";
const GSM7 = new Set([...BASIC, ...EXTENSION]);

/** Signs outside GSM-7 that have a plain equivalent; anything else unknown becomes '?'. */
const PLAIN: Record<string, string> = {
  "\u00a0": " ",
  "\u202f": " ",
  "\u2009": " ",
  "’": "'",
  "‘": "'",
  "«": '"',
  "»": '"',
  "“": '"',
  "”": '"',
  "–": "-",
  "—": "-",
  "…": "...",
  œ: "oe",
  Œ: "OE",
  "·": ".",
};

/** `text` in GSM-7 characters only. */
export function toGsm7(text: string): string {
  let out = "";
  for (const c of text) {
    if (GSM7.has(c)) out += c;
    else if (PLAIN[c] !== undefined) out += PLAIN[c];
    else {
      // ê, ç, î...: the letter without its accent when GSM-7 has it.
      const bare = c.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
      out += [...bare].every((b) => GSM7.has(b)) && bare ? bare : "?";
    }
  }
  return out;
}

/** Septets `text` takes in GSM-7 (an extension sign takes two); 160 fit one SMS. */
export function septets(text: string): number {
  let n = 0;
  for (const c of text) n += EXTENSION.includes(c) ? 2 : 1;
  return n;
}

export const ONE_SMS = 160;

/** `body` and `link` as one SMS: the body is cut (with '...') if the two would not fit, never the link. */
export function oneSms(body: string, link?: string): string {
  const tail = link ? ` ${link}` : "";
  let text = toGsm7(body);
  if (septets(text) + septets(tail) > ONE_SMS) {
    const room = ONE_SMS - septets(tail) - 3;
    while (septets(text) > room) text = text.slice(0, -1);
    text = `${text.trimEnd()}...`;
  }
  return text + tail;
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** 'Tue 1 Dec 2026, 09:00 UTC+1': the clinic's date and time, short, in the reader's language. */
export function smsWhen(locale: Locale, at: Date, timeZone: string): string {
  const key = `${locale}|${timeZone}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale === "fr" ? "fr-FR" : "en-GB", {
      weekday: "short",
      day: "numeric",
      month: "short",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "shortOffset",
      timeZone,
    });
    formats.set(key, format);
  }
  return format.format(at).replace(/\bGMT\b/, "UTC");
}

/** The SMS text `key` under "sms" in mail.json, in `locale`. */
export const smsText = (locale: Locale, key: string, values: Record<string, string> = {}) =>
  mailText(locale, `sms.${key}`, values);
