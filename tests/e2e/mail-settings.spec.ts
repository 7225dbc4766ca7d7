// A patient or a doctor chooses the mail they receive on the settings page (docs/mail.md):
// appointment notices and reminders can be turned off, and the language chosen in the menu becomes
// the language of their mail. Plain forms: the same with JavaScript off (the patient) and on (the
// doctor). Whoever signs in reading the pages in French has their mail in French too, as the page
// says.
import type { Page } from "@playwright/test";
import { api } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { checkA11y } from "./support.ts";

const notices = (page: Page, name: RegExp) => page.getByRole("checkbox", { name });
const NOTICES = { en: /^Tell me by e-mail when one of my appointments/, fr: /^Me prévenir par e-mail/ };
const REMINDERS = { en: /^Remind me by e-mail before a confirmed appointment/, fr: /^Me rappeler par e-mail/ };

/** The settings steps, the same for both roles; `javaScriptEnabled` only changes the language menu. */
async function chooseMail(page: Page, javaScriptEnabled: boolean) {
  await test.step("both kinds of mail are on, in English", async () => {
    await page.goto("/settings");
    await expect(page.getByText("Your e-mails are written in English, the language chosen above.")).toBeVisible();
    await expect(notices(page, NOTICES.en)).toBeChecked();
    await expect(notices(page, REMINDERS.en)).toBeChecked();
    await checkA11y(page);
  });

  await test.step("turn reminders off", async () => {
    await notices(page, REMINDERS.en).uncheck();
    await page.getByRole("button", { name: "Save e-mail choices" }).click();
    await expect(page.getByText("Your e-mail choices are saved.")).toBeVisible();
    await page.goto("/settings");
    await expect(notices(page, REMINDERS.en)).not.toBeChecked();
    await expect(notices(page, NOTICES.en)).toBeChecked();
  });

  await test.step("choose French in the menu: the mail follows", async () => {
    const menu = page.getByRole("main").getByLabel("Language");
    await menu.selectOption("fr");
    // Without JavaScript the menu is a form with its own button.
    if (!javaScriptEnabled) await page.getByRole("main").getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("Vos e-mails sont écrits en français, la langue choisie ci-dessus.")).toBeVisible();
  });

  await test.step("turn notices off, reminders back on", async () => {
    await notices(page, NOTICES.fr).uncheck();
    await notices(page, REMINDERS.fr).check();
    await page.getByRole("button", { name: "Enregistrer mes choix d'e-mails" }).click();
    await expect(page.getByText("Vos choix d'e-mails sont enregistrés.")).toBeVisible();
    await page.goto("/settings");
    await expect(notices(page, NOTICES.fr)).not.toBeChecked();
    await expect(notices(page, REMINDERS.fr)).toBeChecked();
  });
}

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("a patient turns reminders off, then writes in French and turns notices off", async ({
    page,
    patient,
    signIn,
  }) => {
    await signIn(patient);
    await chooseMail(page, false);
  });
});

test.describe("with JavaScript on", () => {
  test("a doctor turns reminders off, then writes in French and turns notices off", async ({
    page,
    doctor,
    signIn,
  }) => {
    await signIn(doctor);
    await chooseMail(page, true);
  });
});

for (const javaScriptEnabled of [false, true]) {
  test.describe(`in French, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled, language: "fr" });

    test("an account made in English, signed in on French pages: the page says its e-mails are in French, and they are", async ({
      page,
      patient,
      signIn,
    }) => {
      expect((await api("GET", "/settings", { token: patient.token })).body.language).toBe("en");
      await signIn(patient);
      await page.goto("/settings");
      await expect(page.getByRole("main").getByLabel("Langue")).toHaveValue("fr");
      await expect(page.getByText("Vos e-mails sont écrits en français, la langue choisie ci-dessus.")).toBeVisible();
      expect((await api("GET", "/settings", { token: patient.token })).body.language).toBe("fr");
      await checkA11y(page);
    });
  });
}
