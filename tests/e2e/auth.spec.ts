// Accounts end to end: a patient and a doctor register, verify with the mailed code, log in, land on
// their role home and log out, with JavaScript off and on; the patient journey again in French
// (chosen with the language menu, as a user would); each form's error messages; the route guards.
import type { Page } from "@playwright/test";
import { enterCode, mailCount, newCode, PASSWORD, signIn, uniqueName } from "./doctor-helpers.ts";
import { createPatient, expect, mainMenu, test } from "./fixtures.ts";
import { checkA11y, mailsTo, uniqueEmail } from "./support.ts";

// A Cameroonian mobile number written as people do: +237 67x xxx xxx.
const phone = () =>
  `+237 67${String(Date.now())
    .slice(-7)
    .replace(/(\d)(\d{3})(\d{3})/, "$1 $2 $3")}`;

const ENGLISH = {
  username: "Username",
  email: "Email",
  phone: "Phone",
  password: "Password",
  confirm: "Confirm password",
  submit: "Register as patient",
};
const FRENCH = {
  username: "Nom d'utilisateur",
  email: "E-mail",
  phone: "Téléphone",
  password: "Mot de passe",
  confirm: "Confirmer le mot de passe",
  submit: "S'inscrire comme patient",
};

/** Fills the patient registration form (open on the page) and submits it. */
async function registerPatient(page: Page, who: { username: string; email: string }, labels = ENGLISH) {
  await page.getByLabel(labels.username).fill(who.username);
  await page.getByLabel(labels.email).fill(who.email);
  await page.getByLabel(labels.phone).fill(phone());
  await page.getByLabel(labels.password, { exact: true }).fill(PASSWORD);
  await page.getByLabel(labels.confirm).fill(PASSWORD);
  await page.getByRole("button", { name: labels.submit }).click();
}

/** Opens the account menu and logs out; the session is gone afterwards. */
async function logOut(page: Page, labels = { menu: "Account menu", logout: "Log out" }) {
  await page.getByLabel(labels.menu).click();
  await page.getByRole("button", { name: labels.logout }).click();
  await page.waitForURL(/\/login/);
}

async function logIn(
  page: Page,
  email: string,
  role: "Patient" | "Doctor",
  labels = { email: "Email", password: "Password", submit: "Log in" },
) {
  await page.getByRole("radio", { name: role }).check();
  await page.getByLabel(labels.email).fill(email);
  await page.getByLabel(labels.password, { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: labels.submit, exact: true }).click();
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`accounts (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("a patient registers, verifies, logs in, lands on the health home and logs out", async ({ page }) => {
      const email = uniqueEmail("newpatient");
      const username = uniqueName("Patient");

      await page.goto("/register");
      await expect(page.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();
      await checkA11y(page);
      await registerPatient(page, { username, email });

      await page.waitForURL(/\/verification/);
      await expect(page.getByText(`Code sent to ${email}`)).toBeVisible();
      await expect(
        page.getByText("Registration successful! Please check your email for the verification code"),
      ).toBeVisible();
      await checkA11y(page);
      const code = await newCode(email);
      if (javaScriptEnabled) {
        // Typing moves from box to box; backspace in an empty box goes back and clears the previous.
        await page.locator('input[name="code0"]').click();
        await page.keyboard.type(code.slice(0, 5) + "9");
        await expect(page.locator('input[name="code5"]')).toHaveValue("9");
        await page.keyboard.press("Backspace");
        await page.keyboard.press("Backspace");
        await expect(page.locator('input[name="code4"]')).toHaveValue("");
        await expect(page.locator('input[name="code4"]')).toBeFocused();
        await page.keyboard.type(code.slice(4));
        for (let i = 0; i < 6; i++) await expect(page.locator(`input[name="code${i}"]`)).toHaveValue(code[i]!);
      } else {
        await enterCode(page, code);
      }
      await page.getByRole("button", { name: "Validate" }).click();

      await page.waitForURL(/\/login/);
      await expect(page.getByText("Account verified successfully! You can now login.").first()).toBeVisible();
      await expect(page.getByLabel("Email")).toHaveValue(email);
      await checkA11y(page);
      await logIn(page, email, "Patient");

      await page.waitForURL(/\/health\/doctors$/);
      await expect(page.getByText(`Welcome back, ${username}!`)).toBeVisible();
      await expect(page.getByText("Login successful")).toBeVisible();
      await checkA11y(page);

      await logOut(page);
      await page.goto("/health/doctors");
      await expect(page).toHaveURL(/\/login\?redirectTo=%2Fhealth%2Fdoctors/);
    });

    test("a doctor registers, verifies, logs in, lands on the appointments and logs out", async ({ page }) => {
      const email = uniqueEmail("newdoctor");
      const name = uniqueName("Doctor");

      await page.goto("/register");
      await page.getByRole("link", { name: "Doctor" }).click();
      await expect(page).toHaveURL(/role=doctor/);
      await page.getByLabel("Medical serial number").fill(`MD-${Date.now()}`);
      await page.getByLabel("Doctor name").fill(name);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Contact (phone)").fill("+237 650 11 22 33");
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Confirm password").fill(PASSWORD);
      await checkA11y(page);
      await page.getByRole("button", { name: "Register as doctor" }).click();

      await page.waitForURL(/\/verification/);
      await enterCode(page, await newCode(email));
      await page.getByRole("button", { name: "Validate" }).click();
      await page.waitForURL(/\/login/);

      // The right password with the wrong role says which role to choose.
      await logIn(page, email, "Patient");
      await expect(page.getByText("This is a doctor account: choose 'Doctor' and log in again.")).toBeVisible();
      await logIn(page, email, "Doctor");

      await page.waitForURL(/\/doctor\/appointments/);
      await expect(page.getByText("Your account is awaiting verification")).toBeVisible();
      await checkA11y(page);
      await logOut(page);
      await page.goto("/doctor/appointments");
      await expect(page).toHaveURL(/\/login\?redirectTo=/);
    });

    test("the patient journey in French, language chosen with the menu", async ({ page }) => {
      const email = uniqueEmail("patiente");
      const username = uniqueName("Patiente");

      await page.goto("/register");
      await page.getByLabel("Language").selectOption("fr");
      if (!javaScriptEnabled) await page.getByRole("button", { name: "Apply" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Créer un compte" })).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", "fr");
      await checkA11y(page);

      // Errors first, in French.
      await page.getByRole("button", { name: "S'inscrire comme patient" }).click();
      await expect(page.getByText("Le nom d'utilisateur est obligatoire")).toBeVisible();
      // The e-mail is optional: without it the code comes by SMS.
      await expect(page.getByText("Le téléphone est obligatoire")).toBeVisible();

      await registerPatient(page, { username, email }, FRENCH);

      await page.waitForURL(/\/verification/);
      await expect(page.getByText(`Code envoyé à ${email}`)).toBeVisible();
      await enterCode(page, await newCode(email));
      await page.getByRole("button", { name: "Valider" }).click();

      await page.waitForURL(/\/login/);
      await expect(
        page.getByText("Compte vérifié avec succès ! Vous pouvez maintenant vous connecter.").first(),
      ).toBeVisible();
      await logIn(page, email, "Patient", { email: "E-mail", password: "Mot de passe", submit: "Se connecter" });
      await page.waitForURL(/\/health\/doctors$/);
      await expect(page.getByText("Connexion réussie")).toBeVisible();
      await checkA11y(page);

      // The mail came in French too.
      expect((await mailsTo(email))[0]?.subject).toMatch(/^Votre code de vérification/);

      await logOut(page, { menu: "Menu du compte", logout: "Se déconnecter" });
      await expect(page.getByRole("heading", { level: 1, name: "Connexion" })).toBeVisible();
    });

    test("each form says what is wrong", async ({ page }) => {
      await test.step("login: empty, malformed, wrong password", async () => {
        await page.goto("/login");
        await page.getByRole("button", { name: "Log in", exact: true }).click();
        await expect(page.getByText("Email or phone number is required")).toBeVisible();
        await expect(page.getByText("Password is required")).toBeVisible();
        await page.getByLabel("Email").fill("not-an-address");
        await page.getByLabel("Password").fill("whatever");
        await page.getByRole("button", { name: "Log in", exact: true }).click();
        await expect(page.getByText("Please enter a valid e-mail or phone number, e.g. 6 77 12 34 56")).toBeVisible();
        await expect(page.getByText("Password is required")).toHaveCount(0);
        await checkA11y(page);
        // An address with no account: the API answers it as a wrong password, and no shared account's
        // login throttle is spent.
        const nobody = uniqueEmail("nobody");
        await page.getByLabel("Email").fill(nobody);
        await page.getByLabel("Password").fill("Wrong-password-1");
        await page.getByRole("button", { name: "Log in", exact: true }).click();
        await expect(page.getByText("Login failed")).toBeVisible();
        await expect(page.getByLabel("Email")).toHaveValue(nobody);
        // The server never sends a password back; with JavaScript the page is not reloaded.
        if (!javaScriptEnabled) await expect(page.getByLabel("Password")).toHaveValue("");
      });

      await test.step("register: every rule of the patient form", async () => {
        await page.goto("/register");
        await page.getByLabel("Username").fill("ab");
        await page.getByLabel("Email").fill("nobody@");
        await page.getByLabel("Phone").fill("65a");
        await page.getByLabel("Password", { exact: true }).fill("Demo1234!");
        await page.getByLabel("Confirm password").fill("Demo1234?");
        await page.getByRole("button", { name: "Register as patient" }).click();
        await expect(page.getByText("Username must be at least 3 characters")).toBeVisible();
        await expect(page.getByText("Please enter a valid email")).toBeVisible();
        await expect(
          page.getByText("Please enter a valid phone number, e.g. 6 70 00 00 01 or +237 6 70 00 00 01"),
        ).toBeVisible();
        await expect(page.getByText("Passwords must match")).toBeVisible();
        // What the user typed is kept (except the passwords).
        await expect(page.getByLabel("Username")).toHaveValue("ab");
        await checkA11y(page);
      });

      await test.step("register: an address already in use gets the same answer as a new one", async () => {
        const taken = await createPatient();
        await page.goto("/register");
        await registerPatient(page, { username: uniqueName("Someone"), email: taken.email });
        await page.waitForURL(/\/verification/);
        await expect(page.getByText(`Code sent to ${taken.email}`)).toBeVisible();
      });

      await test.step("verification: a wrong code", async () => {
        const email = uniqueEmail("wrongcode");
        await page.context().clearCookies();
        await page.goto("/register");
        await registerPatient(page, { username: uniqueName("Patient"), email });
        await page.waitForURL(/\/verification/);
        const code = await newCode(email);
        const wrong = code === "123456" ? "654321" : "123456";
        if (javaScriptEnabled) {
          // A pasted code fills the six boxes.
          await page.locator('input[name="code0"]').evaluate(
            (box, text) => {
              const data = new DataTransfer();
              data.setData("text/plain", text);
              box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
            },
            ` ${wrong.slice(0, 3)} ${wrong.slice(3)} `,
          );
          for (let i = 0; i < 6; i++) await expect(page.locator(`input[name="code${i}"]`)).toHaveValue(wrong[i]!);
        } else {
          await enterCode(page, wrong);
        }
        await page.getByRole("button", { name: "Validate" }).click();
        await expect(page.getByText("Invalid code. Please try again.")).toBeVisible();
        await checkA11y(page);
        // 'Forgot code' mails a new one (at most once a minute: the first came with the registration).
        const before = await mailCount(email);
        await page.getByRole("button", { name: "Forgot code? Send a new one" }).click();
        await expect(page.getByText("Please wait a minute before requesting a new code.")).toBeVisible();
        expect(await mailCount(email)).toBe(before);
      });

      await test.step("forgot and reset password: bad address, wrong code", async () => {
        await page.goto("/forgot-password");
        await page.getByLabel("Email").fill("nobody@");
        await page.getByRole("button", { name: "Send the code" }).click();
        await expect(page.getByText("Please enter a valid email")).toBeVisible();
        await page.getByLabel("Email").fill(uniqueEmail("nobody"));
        await page.getByRole("button", { name: "Send the code" }).click();
        await page.waitForURL(/\/reset-password/);
        await expect(page.getByText("If an account exists for this e-mail, a code has been sent to it.")).toBeVisible();
        await checkA11y(page);
        await enterCode(page, "123456");
        await page.getByLabel("New password").fill("short");
        await page.getByLabel("Confirm password").fill("other");
        await page.getByRole("button", { name: "Change password" }).click();
        await expect(page.getByText("Password must be at least 6 characters")).toBeVisible();
        await expect(page.getByText("Passwords must match")).toBeVisible();
      });
    });

    test("the patient's side menu leads to the paramedical and pharmacy placeholders", async ({ page, patient }) => {
      await signIn(page, patient.email, "patient");
      await (await mainMenu(page)).getByRole("link", { name: "Paramedical staff" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Paramedical Staff Page" })).toBeVisible();
      await checkA11y(page);
      await (await mainMenu(page)).getByRole("link", { name: "Pharmacy" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Pharmacy Page" })).toBeVisible();
      // In the top bar, or in the menu where the bar is too narrow for it (docs/layout.md).
      await mainMenu(page);
      await expect(page.getByRole("button", { name: "Insurance" }).filter({ visible: true })).toBeDisabled();
    });

    test("guards: back to the page asked for after login; a patient cannot open doctor pages", async ({ page }) => {
      const patient = await createPatient();
      await page.goto("/health/doctors/my-appointments?status=pending");
      await expect(page).toHaveURL(/\/login\?redirectTo=/);
      await logIn(page, patient.email, "Patient");
      await page.waitForURL(/\/health\/doctors\/my-appointments\?status=pending/);

      await page.goto("/doctor/appointments");
      await expect(page).toHaveURL(/\/health\/doctors$/);
      await page.goto("/admin");
      await expect(page).toHaveURL(/\/health\/doctors$/);
      // Signed in, the login page sends the user home.
      await page.goto("/login");
      await expect(page).toHaveURL(/\/health\/doctors$/);
      // An outside redirectTo is never followed.
      await page.context().clearCookies();
      await page.goto("/login?redirectTo=https%3A%2F%2Fexample.org%2F");
      await logIn(page, patient.email, "Patient");
      await page.waitForURL(/127\.0\.0\.1.*\/health\/doctors$/);
    });
  });
}

test.describe("the reset journey", () => {
  test("a forgotten password is replaced with the mailed code", async ({ page }) => {
    const patient = await createPatient();
    const before = await mailCount(patient.email);
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL(/\/forgot-password/);
    // With JavaScript the address changes before the new page is drawn (slowly, on a phone's CPU):
    // the login page's own Email field would take the address.
    await expect(page.getByRole("heading", { level: 1, name: "Forgot password" })).toBeVisible();
    await page.getByLabel("Email").fill(patient.email);
    await page.getByRole("button", { name: "Send the code" }).click();
    await page.waitForURL(/\/reset-password/);
    await enterCode(page, await newCode(patient.email, before));
    await page.getByLabel("New password").fill("Nouveau5678!");
    await page.getByLabel("Confirm password").fill("Nouveau5678!");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.waitForURL(/\/login/);
    await expect(page.getByText("Your password has been changed. You can now log in.")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Log in" })).toBeVisible();
    await page.getByLabel("Email").fill(patient.email);
    await page.getByLabel("Password").fill("Nouveau5678!");
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await page.waitForURL(/\/health\/doctors$/);
  });
});
