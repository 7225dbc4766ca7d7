// Lite mode: a patient on a slow phone turns it on in the settings (or their browser sends
// `Save-Data: on`), and pages come as HTML and CSS alone: no script, no modulepreload, no
// hydration data. The journeys still work, as plain forms.
import type { Page } from "@playwright/test";
import { futureSlot, PASSWORD, signIn } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";

async function expectNoScript(page: Page) {
  await expect(page.locator("script")).toHaveCount(0);
  await expect(page.locator('link[rel="modulepreload"]')).toHaveCount(0);
  expect(await page.content()).not.toContain("__reactRouter");
}

test("a patient turns lite mode on, books with plain forms, and turns it off again", async ({
  page,
  patient,
  doctor,
}) => {
  const DOCTOR = doctor.username;
  await signIn(page, patient.email, "patient");

  await test.step("pages carry scripts before", async () => {
    await page.goto("/settings");
    await expect(page.getByText("Lite mode is off.")).toBeVisible();
    expect(await page.locator("script").count()).toBeGreaterThan(0);
  });

  await test.step("turn lite mode on: the pages lose every script", async () => {
    await page.getByRole("button", { name: "Turn lite mode on" }).click();
    await expect(page.getByText("Lite mode is on: pages now load without scripts.")).toBeVisible();
    await expect(page.getByText("Lite mode is on.")).toBeVisible();
    await expectNoScript(page);
    await page.goto("/health/doctors");
    await expectNoScript(page);
  });

  await test.step("a settings post that names no form of the page changes nothing (it turned lite mode off)", async () => {
    const origin = new URL(page.url()).origin;
    const answer = await page.request.post("/settings", {
      form: { intent: "feedRenew-forged" },
      headers: { Origin: origin },
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(400);
    expect(answer.headers()["set-cookie"] ?? "").not.toContain("lite=");
    await page.goto("/settings");
    await expect(page.getByText("Lite mode is on.")).toBeVisible();
    await page.goto("/health/doctors");
  });

  await test.step("book an appointment with plain forms", async () => {
    await page.getByRole("searchbox").first().fill(DOCTOR);
    await page.getByRole("button", { name: /^Search/ }).click();
    const card = page.getByRole("listitem").filter({ hasText: DOCTOR });
    await card.getByRole("link", { name: `Book an appointment with Dr. ${DOCTOR}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.locator('input[type="date"]').fill(futureSlot().date);
    await dialog.getByRole("button", { name: /Show available times/ }).click();
    await expectNoScript(page);
    await page.getByRole("dialog").getByRole("radio", { name: "Online" }).check();
    await page.getByRole("dialog").locator('input[name="time"]:not([disabled])').first().check();
    await page.getByRole("dialog").getByRole("button", { name: "Book appointment" }).click();
    await expect(page.getByText("Appointment created successfully!")).toBeVisible();
    await expectNoScript(page);
  });

  await test.step("turn lite mode off: the scripts come back", async () => {
    await page.goto("/settings");
    await page.getByRole("button", { name: "Turn lite mode off" }).click();
    await expect(page.getByText("Lite mode is off: pages load with their scripts again.")).toBeVisible();
    await expect(page.getByText("Lite mode is off.", { exact: true })).toBeVisible();
    expect(await page.locator("script").count()).toBeGreaterThan(0);
  });
});

test.describe("a browser that asks to save data", () => {
  test.use({ extraHTTPHeaders: { "Save-Data": "on" } });

  test.use({ language: "fr" });

  test("gets every page without scripts, and can still log in (in French)", async ({ page, patient }) => {
    await page.goto("/login");
    await expectNoScript(page);
    await page.getByRole("radio", { name: "Patient" }).check();
    await page.getByLabel("E-mail").fill(patient.email);
    await page.getByLabel("Mot de passe").fill(PASSWORD);
    await page.getByRole("button", { name: /^se connecter$/i }).click();
    await page.waitForURL(/\/health\/doctors/);
    // (Playwright does not add its extra headers to a followed redirect: load the page again.)
    await page.goto("/health/doctors");
    await expectNoScript(page);
    await page.goto("/settings");
    await expect(page.getByText("Votre navigateur demande d'économiser les données", { exact: false })).toBeVisible();
    await expectNoScript(page);
  });
});
