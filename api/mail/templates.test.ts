import { describe, expect, it } from "vitest";
import {
  doctorApprovedMail,
  doctorRejectedMail,
  escapeHtml,
  profileCodeMail,
  registrationAttemptMail,
  resetCodeMail,
  verificationCodeMail,
  type Locale,
} from "./templates.ts";

const codeMails = [verificationCodeMail, profileCodeMail, resetCodeMail];
const locales: Locale[] = ["en", "fr"];

describe("mail templates", () => {
  it.each(locales)("code mails in %s carry the code in subject, text (alone on a line) and HTML", (locale) => {
    for (const make of codeMails) {
      const m = make(locale, { username: "Awa", code: "042917" });
      expect(m.subject).toContain("042917");
      expect(m.text).toMatch(/^\s*042917$/m);
      expect(m.html).toContain("042917");
      // How long the code lives, said in the mail's own language (the same digits would pass in either).
      expect(m.text).toContain(locale === "fr" ? "valable 10 minutes" : "valid for 10 minutes");
      expect(m.html).toContain(`lang="${locale}"`);
    }
  });

  it("speaks the asked language", () => {
    expect(verificationCodeMail("en", { username: "Awa", code: "111111" }).text).toMatch(/^Hello Awa,/);
    expect(verificationCodeMail("fr", { username: "Awa", code: "111111" }).text).toMatch(/^Bonjour Awa,/);
    expect(registrationAttemptMail("fr", { username: "Awa" }).subject).toMatch(/Tentative/);
    expect(doctorApprovedMail("fr", { username: "Awa" }).subject).toMatch(/vérifié/);
    expect(doctorRejectedMail("en", { username: "Awa" }).subject).toMatch(/not accepted/);
  });

  it("escapes user input in HTML, keeps it plain in text", () => {
    const evil = `<script>alert("x")</script> & Co`;
    for (const m of [
      verificationCodeMail("en", { username: evil, code: "123456" }),
      registrationAttemptMail("en", { username: evil }),
      doctorRejectedMail("fr", { username: evil, reason: `<img src=x onerror=alert(1)>` }),
      doctorApprovedMail("en", { username: evil }),
    ]) {
      expect(m.html).not.toContain("<script>");
      expect(m.html).not.toContain("<img");
      expect(m.html).toContain("&lt;script&gt;");
      expect(m.text).toContain(evil);
    }
    expect(escapeHtml(`'"&<>`)).toBe("&#39;&quot;&amp;&lt;&gt;");
  });

  it("the registration notice and doctor outcomes carry no code", () => {
    for (const locale of locales) {
      expect(registrationAttemptMail(locale, { username: "Awa" }).text).not.toMatch(/\b\d{6}\b/);
      expect(doctorApprovedMail(locale, { username: "Awa" }).text).not.toMatch(/\b\d{6}\b/);
    }
  });

  it("mentions the rejection reason only when given", () => {
    expect(doctorRejectedMail("en", { username: "Awa", reason: "Serial not found" }).text).toContain(
      "Reason: Serial not found",
    );
    expect(doctorRejectedMail("fr", { username: "Awa", reason: "Numéro introuvable" }).text).toContain(
      "Motif : Numéro introuvable",
    );
    expect(doctorRejectedMail("en", { username: "Awa", reason: "  " }).text).not.toContain("Reason");
  });

  it("greets without a name", () => {
    expect(verificationCodeMail("en", { username: null, code: "123456" }).text).toMatch(/^Hello there,/);
  });
});
