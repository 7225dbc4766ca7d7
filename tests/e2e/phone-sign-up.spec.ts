// A patient with a phone and no e-mail (docs/sms.md, Signing in with a phone): signs up leaving the
// e-mail empty, types the code an SMS brings in the six boxes (the page says where it went, the
// number partly hidden), chooses a new password with a code by SMS, signs in with the number as a
// Cameroonian card writes it, and books an appointment. Plain forms first: JavaScript off and on,
// English and French, on the phone and the desktop. Codes come through the test SMPP gateway
// (tests/e2e/server.ts).
import type { Page } from "@playwright/test";
import { api, enterCode, futureSlot, uniqueName } from "./doctor-helpers.ts";
import { createReceptionist, expect, type Language, randomMobile, test } from "./fixtures.ts";
import { checkA11y, latestSmsCode, smsTo } from "./support.ts";
import { CODE_RESEND_SECONDS } from "./timing.ts";

const WORDS = {
  en: {
    username: "Username",
    phone: "Phone",
    email: "Email (optional)",
    emailHint: "No e-mail? Leave it empty: we send your code to your phone by SMS.",
    password: "Password",
    confirm: "Confirm password",
    register: "Register as patient",
    texted: /^We sent a 6-digit code by SMS to \+237 6 •• •• •• (\d\d)$/,
    validate: "Validate",
    identifier: "Email or phone number",
    forgot: "Forgot password?",
    sendCode: "Send the code",
    resetSent: "If an account signs in with this number, a code has been sent to it by SMS.",
    codeFromSms: "Code from the SMS",
    newPassword: "New password",
    change: "Change password",
    changed: "Your password has been changed. You can now log in.",
    logIn: "Log in",
    search: /^Search/,
    bookWith: (name: string) => `Book an appointment with Dr. ${name}`,
    showTimes: "Show available times",
    online: "Online",
    book: "Book appointment",
    booked: "Appointment created successfully!",
    birth: "Date of birth",
    birthRequired: "The clinic already has a record for this number: please give your date of birth.",
    birthMismatch: "This date of birth does not match the clinic's record. Check it and try again.",
    myAppointments: "My appointments",
    assigned: "Assigned to me",
    confirmed: "Confirmed",
  },
  fr: {
    username: "Nom d'utilisateur",
    phone: "Téléphone",
    email: "E-mail (facultatif)",
    emailHint: "Pas d'e-mail ? Laissez vide : nous envoyons votre code par SMS.",
    password: "Mot de passe",
    confirm: "Confirmer le mot de passe",
    register: "S'inscrire comme patient",
    texted: /^Nous avons envoyé un code à 6 chiffres par SMS au \+237 6 •• •• •• (\d\d)$/,
    validate: "Valider",
    identifier: "E-mail ou numéro de téléphone",
    forgot: "Mot de passe oublié ?",
    sendCode: "Envoyer le code",
    resetSent: "Si un compte se connecte avec ce numéro, un code lui a été envoyé par SMS.",
    codeFromSms: "Code reçu par SMS",
    newPassword: "Nouveau mot de passe",
    change: "Changer le mot de passe",
    changed: "Votre mot de passe a été changé. Vous pouvez maintenant vous connecter.",
    logIn: "Se connecter",
    search: /^Rechercher/,
    bookWith: (name: string) => `Réserver un rendez-vous avec le Dr ${name}`,
    showTimes: "Afficher les horaires disponibles",
    online: "En ligne",
    book: "Réserver le rendez-vous",
    booked: "Rendez-vous créé avec succès !",
    birth: "Date de naissance",
    birthRequired: "La clinique a déjà une fiche pour ce numéro : veuillez donner votre date de naissance.",
    birthMismatch: "Cette date de naissance ne correspond pas à la fiche de la clinique. Vérifiez-la et réessayez.",
    myAppointments: "Mes rendez-vous",
    assigned: "Attribués",
    confirmed: "Confirmé",
  },
} as const;

/** 6 77 12 34 56: how a Cameroonian card or a business card writes the number. */
const asOnACard = (local: string) => local.replace(/^(\d)(\d\d)(\d\d)(\d\d)(\d\d)$/, "$1 $2 $3 $4 $5");

async function signUpByPhone(page: Page, language: Language, local: string, name = "Nadège Fouda") {
  const w = WORDS[language];
  await page.goto("/register");
  await expect(page.getByText(w.emailHint)).toBeVisible();
  await page.getByLabel(w.username, { exact: true }).fill(name);
  await page.getByLabel(w.phone, { exact: true }).fill(asOnACard(local));
  await page.getByLabel(w.password, { exact: true }).fill("Secret123!");
  await page.getByLabel(w.confirm, { exact: true }).fill("Secret123!");
  await checkA11y(page);
  await page.getByRole("button", { name: w.register }).click();
  await page.waitForURL(/\/verification$/);
}

for (const javaScriptEnabled of [false, true]) {
  for (const language of ["en", "fr"] as const) {
    test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}, ${language}`, () => {
      test.use({ javaScriptEnabled, language });

      test("a patient signs up with a phone only, resets the password by SMS, signs in with the number and books", async ({
        page,
        doctor,
      }) => {
        // Five pages and a booking, on a machine the other workers share.
        test.slow();
        const w = WORDS[language];
        const local = randomMobile();
        const e164 = `+237${local}`;

        await test.step("register with a phone and no e-mail", async () => {
          await signUpByPhone(page, language, local);
        });
        const codeSentAt = Date.now();

        await test.step("the verification page says where the code went, the number partly hidden", async () => {
          const said = page.getByText(w.texted);
          await expect(said).toBeVisible();
          expect((await said.textContent())?.match(w.texted)?.[1]).toBe(local.slice(-2));
          await expect(page.getByText(local)).toHaveCount(0);
          await checkA11y(page);
        });

        await test.step("type the SMS code in the six boxes", async () => {
          await enterCode(page, await latestSmsCode(e164));
          await page.getByRole("button", { name: w.validate }).click();
          await page.waitForURL(/\/login\?/);
        });

        await test.step("the login field takes an e-mail or a number, without the browser's e-mail check", async () => {
          const field = page.getByLabel(w.identifier);
          await expect(field).toHaveAttribute("type", "text");
          await expect(field).toHaveValue(e164);
        });

        await test.step("ask for a reset code by SMS and choose a new password", async () => {
          // The number's next code may go once CODE_RESEND_SECONDS have passed since the first.
          const wait = codeSentAt + CODE_RESEND_SECONDS * 1000 - Date.now();
          if (wait > 0) await page.waitForTimeout(wait + 200);
          const before = (await smsTo(e164)).length;
          await page.getByRole("link", { name: w.forgot }).click();
          // The login page has the same field: type in the forgot page's.
          await page.waitForURL(/\/forgot-password$/);
          await expect(page.getByRole("button", { name: w.sendCode })).toBeVisible();
          await page.getByLabel(w.identifier).fill(local);
          await page.getByRole("button", { name: w.sendCode }).click();
          await page.waitForURL(/\/reset-password\?/);
          await expect(page.getByText(w.resetSent)).toBeVisible();
          await expect(page.getByText(w.codeFromSms, { exact: true })).toBeVisible();
          await enterCode(page, await latestSmsCode(e164, { after: before }));
          await page.getByLabel(w.newPassword, { exact: true }).fill("Nouveau-456");
          await page.getByLabel(w.confirm, { exact: true }).fill("Nouveau-456");
          await page.getByRole("button", { name: w.change }).click();
          await page.waitForURL(/\/login\?/);
          await expect(page.getByText(w.changed)).toBeVisible();
        });

        await test.step("sign in with the number as a card writes it", async () => {
          await page.getByLabel(w.identifier).fill(asOnACard(local));
          await page.getByLabel(w.password, { exact: true }).fill("Nouveau-456");
          await page.getByRole("button", { name: w.logIn, exact: true }).click();
          await page.waitForURL(/\/health\/doctors/);
        });

        await test.step("book an appointment", async () => {
          await page.getByRole("searchbox").first().fill(doctor.username);
          await page.getByRole("button", { name: w.search }).click();
          await page.waitForURL(/search=/);
          const card = page.getByRole("listitem").filter({ hasText: doctor.username });
          await card.getByRole("link", { name: w.bookWith(doctor.username) }).click();
          const dialog = page.getByRole("dialog");
          await expect(dialog).toBeVisible();
          const { date } = futureSlot();
          await dialog.locator('input[type="date"]').fill(date);
          const show = dialog.getByRole("button", { name: w.showTimes });
          if (await show.count()) await show.click();
          await page.waitForURL(new RegExp(`date=${date}`));
          await dialog.getByRole("radio", { name: w.online, exact: true }).check();
          await dialog.locator('input[name="time"]:not([disabled])').first().check();
          await dialog.getByRole("button", { name: w.book }).click();
          await expect(page.getByText(w.booked)).toBeVisible();
        });
      });
    });
  }
}

/** The error said beside a field: the field marked invalid, the words in its description. */
async function errorBeside(page: Page, label: string, words: string) {
  const field = page.getByLabel(label, { exact: true });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  const errorId = (await field.getAttribute("aria-describedby"))?.split(" ")[0];
  await expect(page.locator(`[id="${errorId}"]`)).toHaveText(words);
}

// Claiming a record the front desk made (docs/sms.md, Claiming a desk record): the desk recorded a
// name, a phone and a date of birth and booked an appointment; the patient signs up with that
// phone written another way, proves the SMS code and the date of birth (a wrong one first), and
// finds the desk's appointment in their own list: the record became their account.
for (const javaScriptEnabled of [false, true]) {
  for (const language of ["en", "fr"] as const) {
    test.describe(`claiming a desk record, JavaScript ${javaScriptEnabled ? "on" : "off"}, ${language}`, () => {
      test.use({ javaScriptEnabled, language });

      test("a patient signs up with the phone of a desk record, gives the date of birth, and finds the desk's appointment", async ({
        page,
        admin,
        doctor,
      }) => {
        test.slow();
        const w = WORDS[language];
        const local = randomMobile();
        const e164 = `+237${local}`;
        const name = uniqueName("Paul Mbarga");
        const born = "1984-06-17";

        await test.step("the desk records the patient with a date of birth and books for them", async () => {
          const desk = await createReceptionist(admin, [doctor]);
          const made = await api("POST", "/reception/patients", {
            token: desk.token,
            body: { username: name, phone: e164, dateOfBirth: born, language },
          });
          expect(made.status, JSON.stringify(made.body)).toBe(201);
          // A random open day and slot: another run may hold one, so a few tries.
          let booked = 0;
          for (let i = 0; i < 5 && booked !== 201; i++) {
            const { date, time } = futureSlot();
            const res = await api("POST", "/reception/appointments", {
              token: desk.token,
              body: { patientId: made.body.id, doctorId: doctor.id, type: "in-person", date, time },
            });
            booked = res.status;
          }
          expect(booked).toBe(201);
        });

        await test.step("sign up with the number as a card writes it", async () => {
          await signUpByPhone(page, language, local, name);
        });

        await test.step("the code alone is not enough: the page asks for the date of birth", async () => {
          await enterCode(page, await latestSmsCode(e164));
          await page.getByRole("button", { name: w.validate }).click();
          await errorBeside(page, w.birth, w.birthRequired);
        });

        await test.step("a wrong date of birth is said beside its field", async () => {
          await enterCode(page, await latestSmsCode(e164));
          await page.getByLabel(w.birth, { exact: true }).fill("1984-07-17");
          await page.getByRole("button", { name: w.validate }).click();
          await errorBeside(page, w.birth, w.birthMismatch);
          await expect(page.getByLabel(w.birth, { exact: true })).toHaveValue("1984-07-17");
          await checkA11y(page);
        });

        await test.step("the right date of birth claims the record", async () => {
          await enterCode(page, await latestSmsCode(e164));
          await page.getByLabel(w.birth, { exact: true }).fill(born);
          await page.getByRole("button", { name: w.validate }).click();
          await page.waitForURL(/\/login\?/);
        });

        await test.step("signed in with the number, the desk's appointment is in their own list", async () => {
          await page.getByLabel(w.identifier).fill(local);
          await page.getByLabel(w.password, { exact: true }).fill("Secret123!");
          await page.getByRole("button", { name: w.logIn, exact: true }).click();
          await page.waitForURL(/\/health\/doctors/);
          await page.goto("/health/doctors/my-appointments");
          await expect(page.getByRole("heading", { level: 1, name: w.myAppointments })).toBeVisible();
          await page.getByRole("link", { name: w.assigned }).click();
          const item = page.getByRole("listitem").filter({ hasText: doctor.username });
          await expect(item).toHaveCount(1);
          await expect(item.getByText(w.confirmed, { exact: true })).toBeVisible();
          await checkA11y(page);
        });
      });
    });
  }
}
