// Every form is checked with one zod schema (docs/forms.md): by its route's action, which is all
// there is without JavaScript, and with JavaScript also in the browser (conform), where a wrong
// field is said as the user leaves it or presses the button, without sending anything. The same
// words either way, in English and in French.
import type { Page } from "@playwright/test";
import { PASSWORD, signIn } from "./doctor-helpers.ts";
import { expect, type Language, test } from "./fixtures.ts";
import { uniqueEmail } from "./support.ts";

const TEXTS = {
  en: {
    login: "Log in",
    register: "Register as patient",
    save: "Save",
    email: "Email",
    password: "Password",
    confirm: "Confirm password",
    username: "Username",
    phone: "Phone",
    emailInvalid: "Please enter a valid email",
    identifier: "Email or phone number",
    identifierInvalid: "Please enter a valid e-mail or phone number, e.g. 6 77 12 34 56",
    usernameMin: "Username must be at least 3 characters",
    phoneInvalid: "Please enter a valid phone number, e.g. 6 70 00 00 01 or +237 6 70 00 00 01",
    passwordsMustMatch: "Passwords must match",
  },
  fr: {
    login: "Se connecter",
    register: "S'inscrire comme patient",
    save: "Enregistrer",
    email: "E-mail",
    password: "Mot de passe",
    confirm: "Confirmer le mot de passe",
    username: "Nom d'utilisateur",
    phone: "Téléphone",
    emailInvalid: "Veuillez saisir un e-mail valide",
    identifier: "E-mail ou numéro de téléphone",
    identifierInvalid: "Veuillez saisir un e-mail ou un numéro de téléphone valide, par ex. 6 77 12 34 56",
    usernameMin: "Le nom d'utilisateur doit contenir au moins 3 caractères",
    phoneInvalid: "Veuillez saisir un numéro de téléphone valide, par ex. 6 70 00 00 01 ou +237 6 70 00 00 01",
    passwordsMustMatch: "Les mots de passe doivent correspondre",
  },
} satisfies Record<Language, Record<string, string>>;

/** The posts `page` sends from now on (a form sent by the router is a POST too). */
function postsOf(page: Page) {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  return posts;
}

/**
 * With JavaScript: leaves `field` until its message shows, which it does once the page is
 * interactive and has its texts (until then the server checks the form: docs/forms.md).
 */
async function leaveUntilSaid(page: Page, field: ReturnType<Page["getByLabel"]>, message: string) {
  await expect(async () => {
    await field.focus();
    await field.blur();
    await expect(page.getByText(message)).toBeVisible({ timeout: 1_000 });
  }).toPass();
}

for (const language of ["en", "fr"] as const) {
  for (const javaScriptEnabled of [false, true]) {
    test.describe(`form validation in ${language} (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
      test.use({ javaScriptEnabled, language });
      const t = TEXTS[language];

      test("login: a malformed e-mail or phone is said, by the browser with JavaScript, by the server without", async ({
        page,
      }) => {
        await page.goto("/login");
        const posts = postsOf(page);
        // One field takes an e-mail or a phone number (docs/sms.md): neither is said as such.
        const identifier = page.getByLabel(t.identifier);
        await identifier.fill("not-an-address");
        await page.getByLabel(t.password, { exact: true }).fill("whatever");
        if (javaScriptEnabled) await leaveUntilSaid(page, identifier, t.identifierInvalid);
        await page.getByRole("button", { name: t.login, exact: true }).click();
        await expect(page.getByText(t.identifierInvalid)).toBeVisible();
        await expect(identifier).toHaveAttribute("aria-invalid", "true");
        await expect(identifier).toHaveValue("not-an-address");
        expect(posts).toHaveLength(javaScriptEnabled ? 0 : 1);
      });

      test("register: every wrong field of the patient form is said at once", async ({ page }) => {
        await page.goto("/register");
        const posts = postsOf(page);
        const username = page.getByLabel(t.username);
        await username.fill("ab");
        if (javaScriptEnabled) await leaveUntilSaid(page, username, t.usernameMin);
        await page.getByLabel(t.email).fill("nobody@");
        await page.getByLabel(t.phone).fill("65a");
        await page.getByLabel(t.password, { exact: true }).fill(PASSWORD);
        await page.getByLabel(t.confirm).fill(`${PASSWORD}?`);
        await page.getByRole("button", { name: t.register }).click();
        await expect(page.getByText(t.usernameMin)).toBeVisible();
        await expect(page.getByText(t.emailInvalid)).toBeVisible();
        await expect(page.getByText(t.passwordsMustMatch)).toBeVisible();
        await expect(page.getByText(t.phoneInvalid)).toBeVisible();
        await expect(page.getByLabel(t.phone)).toHaveAttribute("aria-invalid", "true");
        expect(posts).toHaveLength(javaScriptEnabled ? 0 : 1);
      });

      // The browser checks a number's shape only; whether it is a number is the server's to say.
      test("register: a number written right but in no numbering plan is said, the form kept", async ({ page }) => {
        await page.goto("/register");
        const posts = postsOf(page);
        const email = uniqueEmail("noplan");
        await page.getByLabel(t.username).fill("Forms Person");
        await page.getByLabel(t.email).fill(email);
        const phone = page.getByLabel(t.phone);
        await phone.fill("123 456 789");
        await page.getByLabel(t.password, { exact: true }).fill(PASSWORD);
        await page.getByLabel(t.confirm).fill(PASSWORD);
        await page.getByRole("button", { name: t.register }).click();
        await expect(page.getByText(t.phoneInvalid)).toBeVisible();
        await expect(phone).toHaveAttribute("aria-invalid", "true");
        await expect(phone).toHaveValue("123 456 789");
        await expect(page.getByLabel(t.email)).toHaveValue(email);
        expect(new URL(page.url()).pathname).toBe("/register");
        expect(posts).toHaveLength(1);
      });

      test("patient profile: a name too short is said and nothing is saved", async ({ page, patient }) => {
        await signIn(page, patient.email, "patient");
        await page.goto("/patient/profile?edit=1");
        const posts = postsOf(page);
        const username = page.getByLabel(t.username);
        await username.fill("A");
        if (javaScriptEnabled) await leaveUntilSaid(page, username, t.usernameMin);
        await page.getByRole("button", { name: t.save }).first().click();
        await expect(page.getByText(t.usernameMin)).toBeVisible();
        await expect(username).toHaveValue("A");
        expect(posts).toHaveLength(javaScriptEnabled ? 0 : 1);
      });
    });
  }
}

test.describe("a form filled in right (JavaScript on)", () => {
  test("typing sends nothing, and one click registers", async ({ page }) => {
    await page.goto("/register");
    const posts = postsOf(page);
    await page.getByLabel("Username").fill("Forms Person");
    await page.getByLabel("Email").fill(uniqueEmail("forms"));
    await page.getByLabel("Phone").fill("670000000");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByLabel("Username").focus();
    expect(posts).toEqual([]);
    await page.getByRole("button", { name: "Register as patient" }).click();
    await page.waitForURL(/\/verification/);
    expect(posts).toHaveLength(1);
  });
});

test.describe("a wrong field left by pressing the button (JavaScript on)", () => {
  // Leaving a wrong field says what is wrong under it, which moves the button down; the press that
  // left the field must still send the form to its check (it was lost when the button moved away
  // between the press and the release): then the first field in error takes the focus.
  test("the press is not lost: the form is checked whole and the first wrong field has the focus", async ({ page }) => {
    const t = TEXTS.en;
    await page.goto("/register");
    const posts = postsOf(page);
    const phone = page.getByLabel(t.phone);
    await phone.fill("65a");
    await leaveUntilSaid(page, phone, t.phoneInvalid);
    await page.getByLabel(t.username).fill("Forms Person");
    await page.getByLabel(t.email).fill(uniqueEmail("forms"));
    await page.getByLabel(t.password, { exact: true }).fill(PASSWORD);
    await page.getByLabel(t.confirm).fill(`${PASSWORD}?`);
    await page.getByRole("button", { name: t.register }).click();
    await expect(page.getByText(t.passwordsMustMatch)).toBeVisible();
    await expect(phone).toBeFocused();
    expect(posts).toEqual([]);
  });
});

test.describe("phone numbers in the browser (JavaScript on)", () => {
  // The numbering plans of libphonenumber-js weigh about 29 KB on the wire: they stay on the server
  // (issue 35, a first visit within a phone's data plan). The registration form's check, loaded at
  // the first act, must not bring them.
  test("registration checks a number's shape without fetching the numbering plans", async ({ page }) => {
    const scripts: Promise<{ url: string; body: string }>[] = [];
    page.on("response", (response) => {
      if (response.request().resourceType() === "script")
        scripts.push(response.text().then((body) => ({ url: response.url(), body })));
    });
    await page.goto("/register");
    const phone = page.getByLabel(TEXTS.en.phone);
    await phone.fill("65a");
    await leaveUntilSaid(page, phone, TEXTS.en.phoneInvalid);
    await page.waitForLoadState("networkidle");
    const fetched = await Promise.all(scripts);
    expect(fetched.length).toBeGreaterThan(0);
    expect(fetched.filter(({ body }) => body.includes("country_calling_codes")).map(({ url }) => url)).toEqual([]);
  });

  test("a doctor's contact in no numbering plan is said by the server", async ({ page }) => {
    await page.goto("/register?role=doctor");
    const posts = postsOf(page);
    await page.getByLabel("Serial number").fill("SN-NOPLAN-1");
    await page.getByLabel("Doctor name").fill("Dr Forms");
    await page.getByLabel("Email").fill(uniqueEmail("noplan-doctor"));
    const contact = page.getByLabel("Contact");
    await contact.fill("+237 123 456 789");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByRole("button", { name: "Register as doctor" }).click();
    await expect(page.getByText("Invalid contact format")).toBeVisible();
    await expect(contact).toHaveAttribute("aria-invalid", "true");
    await expect(contact).toHaveValue("+237 123 456 789");
    expect(posts).toHaveLength(1);
  });
});
