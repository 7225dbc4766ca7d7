// What a text message says (api/sms/texts.ts): GSM-7 only, one SMS, for every notice in both
// languages even with the longest dates and the longest PUBLIC_URL config.ts admits; and the
// delivery receipts the SMPP client reads.
import { describe, expect, it } from "vitest";
import type { PDU } from "smpp";
import { readReceipt } from "./smpp.ts";
import { ONE_SMS, oneSms, septets, smsText, smsWhen, toGsm7 } from "./texts.ts";
import { readConfig } from "../../config.ts";

describe("GSM-7", () => {
  it("keeps the French letters GSM-7 has and strips the accent of the others", () => {
    expect(toGsm7("é è à ù É Ç ê â î ô û ë ï ç œ À")).toBe("é è à ù É Ç e a i o u e i c oe A");
    expect(toGsm7("d’Afrique « 9 h »\u202f– mar.")).toBe('d\'Afrique " 9 h " - mar.');
    expect(toGsm7("漢 😀")).toBe("? ?");
  });

  it("counts the extension signs as two", () => {
    expect(septets("abc")).toBe(3);
    expect(septets("[€]")).toBe(6);
  });

  it("cuts a long body, never the link", () => {
    const link = "https://clinic.example.cm/a/5e3f0c5e-8f8e-4c2b-9a49-2b8e4d2f7a10";
    const text = oneSms("x".repeat(300), link);
    expect(septets(text)).toBe(ONE_SMS);
    expect(text.endsWith(`... ${link}`)).toBe(true);
  });
});

describe("every notice fits one SMS", () => {
  // The longest words: a Wednesday in September (mer. / Wed), two-digit day, PUBLIC_URL of 40 characters.
  const at = new Date("2026-09-30T20:59:00Z");
  const link = `https://${"c".repeat(32)}/a/5e3f0c5e-8f8e-4c2b-9a49-2b8e4d2f7a10`;
  for (const locale of ["en", "fr"] as const) {
    for (const key of ["confirmed", "rescheduled", "cancelledByDoctor", "proposal", "reminder"]) {
      it(`${locale} ${key}`, () => {
        const body = toGsm7(smsText(locale, key, { when: smsWhen(locale, at, "Africa/Douala") }));
        // Whole, not cut, and in GSM-7 with its link.
        expect(septets(`${body} ${link}`)).toBeLessThanOrEqual(ONE_SMS);
        expect(body).toMatch(/30.*2026.*21:59 UTC\+1/);
      });
    }
    it(`${locale} code`, () => {
      const text = oneSms(smsText(locale, "code", { code: "123456" }));
      expect(text).toContain("123456");
      expect(toGsm7(text)).toBe(text);
    });
  }

  it("PUBLIC_URL is refused past 40 characters", () => {
    expect(() => readConfig({ PUBLIC_URL: `https://${"c".repeat(33)}` })).toThrow(
      /PUBLIC_URL must be at most 40 characters/,
    );
    expect(readConfig({ PUBLIC_URL: `https://${"c".repeat(32)}/` }).publicUrl).toHaveLength(40);
  });
});

describe("SMS configuration", () => {
  it("reads SMS_URL and SMS_FROM, and names a bad one without echoing the password", () => {
    const c = readConfig({
      SMS_URL: "smpps://clinic:pa%40ss@sms.example.cm:3550?bind=transmitter",
      SMS_FROM: "Clinique1",
    });
    expect(c).toMatchObject({ smsTransport: "smpp", SMS_FROM: "Clinique1" });
    for (const url of [
      "http://a:b@h:1",
      "smpp://h:2775",
      "smpp://id:secretpw@h",
      "smpp://id:secretpw@h:2775?bind=receiver",
    ]) {
      const error = (() => {
        try {
          readConfig({ SMS_URL: url });
        } catch (e) {
          return (e as Error).message;
        }
      })();
      expect(error).toMatch(/SMS_URL /);
      expect(error).not.toContain("secretpw");
    }
    expect(() => readConfig({ SMS_FROM: "TwelveLetter" })).toThrow(/SMS_FROM must be 1 to 11 letters and digits/);
    expect(() => readConfig({ SMS_FROM: "Clinic One" })).toThrow(/SMS_FROM/);
  });

  it("prints in development without SMS_URL, sends none in production without it, and needs PUBLIC_URL with it in production", () => {
    expect(readConfig({ NODE_ENV: "development" }).smsTransport).toBe("console");
    const production = { NODE_ENV: "production", MAIL_TRANSPORT: "outbox" };
    expect(readConfig(production).smsTransport).toBe("none");
    expect(() => readConfig({ ...production, SMS_URL: "smpp://a:b@h:2775" })).toThrow(
      /PUBLIC_URL is required in production with SMS_URL/,
    );
    expect(
      readConfig({ ...production, SMS_URL: "smpp://a:b@h:2775", PUBLIC_URL: "https://rdv.clinic.cm" }).smsTransport,
    ).toBe("smpp");
  });
});

describe("delivery receipts", () => {
  const pdu = (fields: Record<string, unknown>) => fields as unknown as PDU;
  it("reads the TLVs, else the receipt's text, and ignores a message that is no receipt", () => {
    expect(
      readReceipt(pdu({ esm_class: 4, receipted_message_id: "abc", message_state: 5, short_message: { message: "" } })),
    ).toEqual({ messageId: "abc", status: "UNDELIV" });
    expect(
      readReceipt(
        pdu({
          esm_class: 4,
          short_message: {
            message: "id:77 sub:001 dlvrd:001 submit date:2611281200 done date:2611281201 stat:DELIVRD err:000 text:",
          },
        }),
      ),
    ).toEqual({
      messageId: "77",
      status: "DELIVRD",
    });
    expect(readReceipt(pdu({ esm_class: 0, short_message: { message: "id:77 stat:DELIVRD" } }))).toBeUndefined();
  });
});
