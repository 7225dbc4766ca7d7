// A patient who signed up with a phone and no e-mail (docs/sms.md, Signing in with a phone): the
// settings page says text messages are their only channel, has no e-mail choices, and lets them
// add an address, proved by the code mailed to it; then the e-mail choices show and the address
// signs in too. Plain forms: JavaScript off and on, English and French, on the desktop and on a
// phone 320 px wide (nothing sticks out sideways at any step).
import { api, apiLogin, enterCode, PASSWORD, uniqueName } from "./doctor-helpers.ts";
import { expect, type Language, randomMobile, test } from "./fixtures.ts";
import { overflowAt } from "./layout-support.ts";
import { checkA11y, latestCode, latestSmsCode, uniqueEmail } from "./support.ts";

const WORDS = {
  en: {
    sms: "Text messages (SMS)",
    onlyChannel: /^Your account has no e-mail address: text messages are how you get/,
    card: "E-mail address",
    mailChoices: "E-mails",
    send: "Send me a code by e-mail",
    invalid: "Please enter a valid email",
    sent: (email: string) => `We sent a 6-digit code to ${email}. Type it below; it is valid for 10 minutes.`,
    add: "Add this e-mail address",
    wrong: "Invalid code. Please try again.",
    added: "Your e-mail address is added: your notices and reminders also come by e-mail.",
  },
  fr: {
    sms: "SMS",
    onlyChannel: /^Votre compte n'a pas d'adresse e-mail : c'est par SMS que vous recevez/,
    card: "Adresse e-mail",
    mailChoices: "E-mails",
    send: "M'envoyer un code par e-mail",
    invalid: "Veuillez saisir un e-mail valide",
    sent: (email: string) =>
      `Nous avons envoyé un code à 6 chiffres à ${email}. Saisissez-le ci-dessous ; il est valable 10 minutes.`,
    add: "Ajouter cette adresse e-mail",
    wrong: "Code invalide. Veuillez réessayer.",
    added: "Votre adresse e-mail est ajoutée : vos avis et rappels arrivent aussi par e-mail.",
  },
} satisfies Record<Language, Record<string, unknown>>;

/** A patient who signed up with a phone and no e-mail, the code the SMS brought typed in; signs in with the number. */
async function phoneOnlyPatient() {
  const local = randomMobile();
  const registered = await api("POST", "/auth/register", {
    body: { username: uniqueName("Patient"), phone: local, password: PASSWORD, userRole: "patient" },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
  const verified = await api("PUT", `/auth/verifyUser/${registered.body.id}`, {
    body: { otpCode: await latestSmsCode(`+237${local}`) },
  });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  const login = await api("POST", "/auth/login", { body: { phone: local, password: PASSWORD, role: "patient" } });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return { local, id: login.body.data.id as string };
}

for (const javaScriptEnabled of [false, true]) {
  for (const language of ["en", "fr"] as const) {
    const w = WORDS[language];
    test.describe(`adding an e-mail, ${language}, JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
      test.use({ javaScriptEnabled, language });

      test("a patient with a phone only adds an e-mail address, proved by the mailed code", async ({
        page,
        signIn,
      }, testInfo) => {
        const phone = testInfo.project.name === "phone";
        if (phone) await page.setViewportSize({ width: 320, height: 740 });
        const fits = async () => {
          if (phone) expect(await overflowAt(page, 320)).toEqual([]);
        };
        const patient = await phoneOnlyPatient();
        const email = uniqueEmail("added");
        await signIn({ email: patient.local, role: "patient" });
        const card = page.getByRole("region", { name: w.card, exact: true });

        await test.step("the settings say SMS is the only channel, and offer to add an address", async () => {
          await page.goto("/settings");
          await expect(page.getByRole("region", { name: w.sms, exact: true }).getByText(w.onlyChannel)).toBeVisible();
          await expect(page.getByRole("heading", { name: w.mailChoices, exact: true })).toHaveCount(0);
          await expect(card).toBeVisible();
          await checkA11y(page);
          await fits();
        });

        await test.step("a mistyped address is said beside its field, and kept", async () => {
          await card.getByLabel(w.card, { exact: true }).fill("nadege.example.test");
          await card.getByRole("button", { name: w.send }).click();
          await expect(card.getByText(w.invalid)).toBeVisible();
          await expect(card.getByLabel(w.card, { exact: true })).toHaveValue("nadege.example.test");
          await fits();
        });

        await test.step("the right address gets a code; a wrong code is refused", async () => {
          await card.getByLabel(w.card, { exact: true }).fill(email);
          await card.getByRole("button", { name: w.send }).click();
          await expect(card.getByText(w.sent(email))).toBeVisible();
          const code = await latestCode(email);
          await enterCode(page, code === "000000" ? "111111" : "000000");
          await card.getByRole("button", { name: w.add }).click();
          await expect(card.getByText(w.wrong)).toBeVisible();
          await checkA11y(page);
          await fits();
        });

        await test.step("the code the mail brought adds the address: the e-mail choices show", async () => {
          await enterCode(page, await latestCode(email));
          await card.getByRole("button", { name: w.add }).click();
          await expect(page.getByText(w.added)).toBeVisible();
          await expect(card).toHaveCount(0);
          await expect(page.getByRole("heading", { name: w.mailChoices, exact: true })).toBeVisible();
          await expect(page.getByText(w.onlyChannel)).toHaveCount(0);
          await fits();
          // The address now signs in too.
          expect((await apiLogin(email, "patient")).id).toBe(patient.id);
        });
      });
    });
  }
}
