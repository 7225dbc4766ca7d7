// A patient verifies their phone with the code a text message brings, and turns text messages on,
// on the settings page (docs/sms.md). The code comes through the test SMPP gateway
// (tests/e2e/server.ts). Plain forms: the same journey with JavaScript off and on, in English and in
// French, on the phone and the desktop; a wrong code is said in the page's language.
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { enterCode } from "./doctor-helpers.ts";
import { createPatient, expect, type Language, test } from "./fixtures.ts";
import { checkA11y, latestSmsCode, smsTo } from "./support.ts";

const WORDS = {
  en: {
    title: "Text messages (SMS)",
    unverified: "Not verified",
    verified: "Verified",
    send: "Send me a code by SMS",
    sent: /We sent a 6-digit code by SMS to \+237/,
    verify: "Verify my phone",
    wrong: "Invalid code. Please try again.",
    phoneVerified: "Your phone is verified. You can now turn text messages on.",
    turnOn: "Turn text messages on",
    on: "Text messages are on.",
    turnedOn: "Text messages are on: your notices and reminders also come by SMS.",
  },
  fr: {
    title: "SMS",
    unverified: "Non vérifié",
    verified: "Vérifié",
    send: "M’envoyer un code par SMS",
    sent: /Nous avons envoyé un code à 6 chiffres par SMS au \+237/,
    verify: "Vérifier mon téléphone",
    wrong: "Code invalide. Veuillez réessayer.",
    phoneVerified: "Votre téléphone est vérifié. Vous pouvez maintenant activer les SMS.",
    turnOn: "Activer les SMS",
    on: "Les SMS sont activés.",
    turnedOn: "Les SMS sont activés : vos avis et rappels arrivent aussi par SMS.",
  },
} as const;

async function verifyAndTurnOn(page: Page, language: Language, phone: string) {
  const w = WORDS[language];
  const card = page.getByRole("region", { name: w.title, exact: true });

  await test.step("the card shows the phone, not verified", async () => {
    await page.goto("/settings");
    await expect(card.getByText(w.unverified)).toBeVisible();
    await expect(card.getByText(phone.slice(-2))).toBeVisible();
  });

  await test.step("send a code, type a wrong one: the error is in the page's language", async () => {
    await card.getByRole("button", { name: w.send }).click();
    await expect(card.getByText(w.sent)).toBeVisible();
    const code = await latestSmsCode(phone);
    await enterCode(page, code === "000000" ? "111111" : "000000");
    await card.getByRole("button", { name: w.verify }).click();
    await expect(card.getByText(w.wrong)).toBeVisible();
    await checkA11y(page);
  });

  await test.step("type the code the SMS brought: the phone is verified", async () => {
    await enterCode(page, await latestSmsCode(phone));
    await card.getByRole("button", { name: w.verify }).click();
    await expect(page.getByText(w.phoneVerified)).toBeVisible();
    await expect(card.getByText(w.verified, { exact: true })).toBeVisible();
  });

  await test.step("turn text messages on", async () => {
    await card.getByRole("button", { name: w.turnOn }).click();
    await expect(page.getByText(w.turnedOn)).toBeVisible();
    await page.goto("/settings");
    await expect(card.getByText(w.on, { exact: true })).toBeVisible();
    // One code was sent, to this phone only.
    expect(await smsTo(phone)).toHaveLength(1);
  });

  await test.step("the short link of a text message leads to the appointment in the patient's list", async () => {
    const id = randomUUID();
    const link = await page.request.get(`/a/${id}`, { maxRedirects: 0 });
    expect(link.status()).toBe(302);
    expect(link.headers().location).toBe(`/health/doctors/my-appointments?appointment=${id}`);
    expect((await page.request.get("/a/not-an-appointment", { maxRedirects: 0 })).status()).toBe(404);
  });
}

for (const javaScriptEnabled of [false, true]) {
  for (const language of ["en", "fr"] as const) {
    test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}, ${language}`, () => {
      test.use({ javaScriptEnabled, language });

      test("a patient verifies their phone by SMS and turns text messages on", async ({ page, signIn }) => {
        const local = `67${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`;
        const patient = await createPatient({ phone: local });
        await signIn(patient);
        await verifyAndTurnOn(page, language, `+237${local}`);
      });
    });
  }
}
