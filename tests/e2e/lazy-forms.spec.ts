// Forms that are the whole page load conform's form state after the page is interactive
// (app/components/lazy-form.tsx, docs/decisions/0003-first-load-javascript-budget.md). What the user
// types before it arrives, where the focus and the caret are, all stay when it takes over, and the
// form validates in the browser from then on.
import type { Page } from "@playwright/test";
import { passProfileGate, signIn } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { holdModule } from "./support.ts";

/** Opens `path` with conform's form state held back, and the posts the page makes from then on. */
async function openWithFormStateHeld(page: Page, path: string) {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  const formState = await holdModule(page, /\/assets\/conform-bridge-[^/]+\.js$/);
  await page.goto(path);
  await expect.poll(() => formState.asked).toBe(true);
  return { posts, formState };
}

test.describe("a form whose form state arrives late (JavaScript on)", () => {
  test("login: what was typed, the choice and the focus stay, then the browser validates", async ({ page }) => {
    const { posts, formState } = await openWithFormStateHeld(page, "/login");

    await page.getByRole("radio", { name: "Doctor" }).check();
    const email = page.getByLabel("Email");
    await email.click();
    await page.keyboard.type("not-an");
    formState.release();
    await expect(page.locator("form[data-enhanced]")).toHaveCount(1);

    // The same field, still focused, caret at the end of what was typed.
    await expect(email).toBeFocused();
    await expect(email).toHaveValue("not-an");
    await page.keyboard.type("-address");
    await expect(email).toHaveValue("not-an-address");
    await expect(page.getByRole("radio", { name: "Doctor" })).toBeChecked();

    // Validated in the browser on leaving the field (once the schemas are there too): no post.
    await expect(async () => {
      await email.focus();
      await email.blur();
      await expect(page.getByText("Please enter a valid email")).toBeVisible({ timeout: 1_000 });
    }).toPass();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    expect(posts).toEqual([]);
  });

  test("register: the fields typed before stay, and the form is checked before it is sent", async ({ page }) => {
    const { posts, formState } = await openWithFormStateHeld(page, "/register");
    await page.getByLabel("Username").fill("ab");
    await page.getByLabel("Email").fill("nobody@");
    const phone = page.getByLabel("Phone");
    await phone.click();
    await page.keyboard.type("65");
    formState.release();
    await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
    await expect(phone).toBeFocused();
    await page.keyboard.type("a");
    await expect(phone).toHaveValue("65a");
    await expect(page.getByLabel("Username")).toHaveValue("ab");
    await expect(page.getByLabel("Email")).toHaveValue("nobody@");

    // Once the schemas are there too (a blur validates the field in the browser), a click is checked
    // before anything is sent: clicked earlier, it would post the form.
    const username = page.getByLabel("Username");
    await expect(async () => {
      await username.focus();
      await username.blur();
      await expect(page.getByText("Username must be at least 3 characters")).toBeVisible({ timeout: 1_000 });
    }).toPass();
    await page.getByRole("button", { name: "Register as patient" }).click();
    await expect(page.getByText("Please enter a valid email")).toBeVisible();
    expect(posts).toEqual([]);
  });

  test("patient profile: the edit form keeps what was typed and validates in the browser", async ({ page, patient }) => {
    await signIn(page, patient.email, "patient");
    const { posts, formState } = await openWithFormStateHeld(page, "/patient/profile?edit=1");
    const name = page.getByLabel("Username");
    await name.fill("");
    await name.click();
    await page.keyboard.type("A");
    formState.release();
    await expect(page.locator("form[data-enhanced]")).toHaveCount(1);
    await expect(name).toBeFocused();
    await page.keyboard.type("b");
    await expect(name).toHaveValue("Ab");
    await expect(async () => {
      await name.focus();
      await name.blur();
      await expect(page.getByText("Username must be at least 3 characters")).toBeVisible({ timeout: 1_000 });
    }).toPass();
    expect(posts).toEqual([]);
  });

  test("register: a form sent before the form state arrives puts the focus on the first wrong field", async ({ page }) => {
    const { posts } = await openWithFormStateHeld(page, "/register");
    await page.getByLabel("Username").fill("someone-valid");
    await page.getByLabel("Email").fill("nobody@");
    await page.getByLabel("Phone").fill("65a");
    // Sent by the router and checked by the server, as without the form state.
    await page.getByRole("button", { name: "Register as patient" }).click();
    await expect(page.getByText("Please enter a valid email")).toBeVisible();
    expect(posts).toHaveLength(1);
    // As conform does with the server's answer once it is loaded: the first field in error, not the
    // button the user clicked, has the focus.
    await expect(page.getByLabel("Email")).toBeFocused();
    await expect(page.locator("form[data-enhanced]")).toHaveCount(0);
  });

  test("the form state is not part of the pages' first load, nor the profile's edit form", async ({ page, patient }) => {
    for (const path of ["/login", "/register"]) {
      const html = await (await page.request.get(path)).text();
      expect(html).not.toMatch(/assets\/conform-/);
    }
    await signIn(page, patient.email, "patient");
    const html = await (await page.request.get("/patient/profile")).text();
    expect(html).not.toMatch(/assets\/(conform|profile-form|country-city|delete-account-dialog)-/);
  });

  test("nor the doctor's profile view, form and deletion dialog", async ({ page, doctor, signIn }) => {
    await signIn(doctor);
    // The code gate's page: the route's module and what the gate imports, not the profile behind it.
    const html = await (await page.request.get("/doctor/profile")).text();
    expect(html).toMatch(/assets\/profile-[^"]+\.js/);
    expect(html).toMatch(/assets\/code-input-[^"]+\.js/);
    expect(html).not.toMatch(/assets\/(conform|lazy-form|profile-view|profile-form|country-city|delete-account-dialog|forms)-/);
  });

  for (const part of [
    // Shown by the server, then taken over once hydrated: conform marks the edit form it runs.
    { query: "edit=1", module: /\/assets\/profile-form-[^/]+\.js$/, shown: (page: Page) => page.getByRole("button", { name: "Save" }), ready: (page: Page) => expect(page.locator("form[data-enhanced]")).toHaveCount(1) },
    { query: "delete=1", module: /\/assets\/delete-account-dialog-[^/]+\.js$/, shown: (page: Page) => page.getByRole("dialog", { name: "Delete your account?" }), ready: (page: Page) => expect(page.getByRole("dialog", { name: "Delete your account?" })).toBeVisible() },
  ]) {
    test(`the doctor's profile opened with ?${part.query} asks for that part with the view, not once the view has come`, async ({ page, doctor, signIn }) => {
      await signIn(doctor);
      await passProfileGate(page.context(), doctor.email);

      const view = await holdModule(page, /\/assets\/profile-view-[^/]+\.js$/);
      let partAsked = false;
      page.on("request", (request) => {
        if (part.module.test(new URL(request.url()).pathname)) partAsked = true;
      });
      await page.goto(`/doctor/profile?${part.query}`);
      await expect(part.shown(page)).toBeVisible();
      await expect.poll(() => view.asked).toBe(true);
      // The view is still held: a part asked for now was not waiting for it.
      await expect.poll(() => partAsked).toBe(true);
      view.release();
      await part.ready(page);
    });
  }
});
