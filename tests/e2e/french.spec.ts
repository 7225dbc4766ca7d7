// The product in French, as a French-speaking patient, doctor and admin read it: speciality and
// country names in French, fees written once the French way, the clinic time zone beside every
// time, and buttons whose case is the one the texts are written in (no CSS capitalisation).
// The expected texts come from Intl itself, not from the app's formatters.
import type { Locator } from "@playwright/test";
import { api, openDay, signIn, uniqueName } from "./doctor-helpers.ts";
import { type Account, createDoctor, createUnapprovedDoctor, expect, queueCard, test } from "./fixtures.ts";

const idOf = async (path: string, name: string) =>
  (await api<{ id: number; name: string }[]>("GET", path)).body.find((p) => p.name === name)!.id;

/**
 * The test's own doctor of Cardiology and Internal medicine (a specialist, so 6000 XAF), at the
 * Hôpital Général de Douala, Cameroon.
 */
async function specialist(admin: Account) {
  const cardiology = await idOf("/speciality", "Cardiology");
  const internalMedicine = await idOf("/speciality", "Internal medicine");
  const doctor = await createDoctor(admin, [cardiology, internalMedicine], { username: uniqueName("Didier") });
  const cameroon = await idOf("/location/country", "Cameroon");
  const douala = await idOf(`/location/city/${cameroon}`, "Douala");
  const saved = await api("PUT", "/doctor/me", {
    token: doctor.token,
    body: { duty_hospital: "Hôpital Général de Douala", countryId: cameroon, cityId: douala },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return doctor;
}

const fee = new Intl.NumberFormat("fr", { style: "currency", currency: "XAF", maximumFractionDigits: 0 }).format(6000);
const zoneName = new Intl.DateTimeFormat("fr", { timeZone: "Africa/Douala", timeZoneName: "long" })
  .formatToParts(new Date())
  .find((p) => p.type === "timeZoneName")!.value;
// Africa/Douala keeps UTC+1 all year (no daylight saving time).
const zoneLabel = `Fuseau horaire : ${zoneName} (UTC+1)`;
const region = (code: string) => new Intl.DisplayNames(["fr"], { type: "region" }).of(code)!;

/** Loose on spaces: Intl puts narrow no-break spaces in '6 000 FCFA'. */
const spaced = (text: string) => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s/g, "\\s"));

/** No text on the page says XAF or an English speciality: the fee is written once, the French way. */
async function expectNoEnglishLeft(scope: Locator) {
  await expect(scope.getByText(/XAF/)).toHaveCount(0);
  await expect(scope.getByText(/Cardiology|Internal medicine|General practice/)).toHaveCount(0);
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`French names, fees and time zone (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled, language: "fr" });

    test("a patient finds a doctor, books and reads the appointment in French", async ({ page, patient, admin }) => {
      const DOCTOR = (await specialist(admin)).username;
      await signIn(page, patient.email, "patient");
      await expect(page).toHaveURL(/\/health\/doctors/);

      await test.step("the filters name specialities and countries in French", async () => {
        const speciality = page.getByLabel("Spécialité", { exact: true });
        await expect(speciality.locator("option", { hasText: "Cardiologie" })).toHaveCount(1);
        await expect(speciality.locator("option", { hasText: "Médecine générale" })).toHaveCount(1);
        await expect(speciality.locator("option", { hasText: "Cardiology" })).toHaveCount(0);
        const country = page.getByLabel("Pays", { exact: true });
        for (const code of ["CM", "TD", "GQ", "CF"])
          await expect(country.locator("option", { hasText: region(code) })).toHaveCount(1);
        await expect(country.locator("option", { hasText: /^(Chad|Cameroon)$/ })).toHaveCount(0);
      });

      let date = "";
      await test.step("the doctor's card and book dialog read in French", async () => {
        await page.getByRole("searchbox").first().fill(DOCTOR);
        await page.getByRole("button", { name: /^Rechercher/ }).click();
        await page.waitForURL(/search=Didier/);
        const card = page.getByRole("listitem").filter({ hasText: DOCTOR });
        await expect(card).toHaveCount(1);
        await expect(card.getByText("Cardiologie, Médecine interne")).toBeVisible();
        await expect(card.getByText(spaced(fee))).toBeVisible();
        await expectNoEnglishLeft(card);

        await card.getByRole("link", { name: `Réserver un rendez-vous avec le Dr ${DOCTOR}` }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog).toBeVisible();
        date = openDay(30);
        await dialog.locator('input[type="date"]').fill(date);
        const show = dialog.getByRole("button", { name: /Afficher les horaires/ });
        if (await show.count()) await show.click();
        await page.waitForURL(new RegExp(`date=${date}`));
        await expect(dialog.getByText("Cardiologie, Médecine interne")).toBeVisible();
        await expect(dialog.getByText(spaced(fee))).toHaveCount(2); // the summary and the fee line
        await expect(dialog.getByText(zoneLabel)).toBeVisible();
        await dialog.getByRole("radio", { name: "En présentiel" }).check();
        await expect(dialog.getByText(`Hôpital Général de Douala, Douala, ${region("CM")}`)).toBeVisible();
        await expectNoEnglishLeft(dialog);
        await dialog.locator('input[name="time"]:not([disabled])').first().check();
        await dialog.getByRole("button", { name: "Réserver le rendez-vous" }).click();
        await expect(page.getByText("Rendez-vous créé avec succès !")).toBeVisible();
      });

      await test.step("my appointments show the fee, the zone and a French place", async () => {
        await page.goto("/health/doctors/my-appointments?tab=assigned");
        await expect(page.getByText(zoneLabel)).toBeVisible();
        const item = page.getByRole("listitem").filter({ hasText: `Dr ${DOCTOR}` });
        await expect(item).toHaveCount(1);
        await expect(item.getByText(spaced(fee))).toBeVisible();
        await expect(item.getByText(new RegExp(`Douala, ${region("CM")}`))).toBeVisible();
        await expectNoEnglishLeft(page.locator("main, body").first());
      });

      await test.step("the profile names the patient's country in French", async () => {
        const countries = await api<{ id: number; code: string }[]>("GET", "/location/country");
        const chad = countries.body.find((c) => c.code === "TD")!;
        const saved = await api("PUT", "/patient/me", { token: patient.token, body: { countryId: chad.id } });
        expect(saved.status, JSON.stringify(saved.body)).toBe(200);
        await page.goto("/patient/profile");
        await expect(page.getByText(region("TD"), { exact: true })).toBeVisible();
        await page.goto("/patient/profile?edit=1");
        await expect(page.getByLabel("Pays", { exact: true }).locator("option:checked")).toHaveText(region("TD"));
        await page.goto("/health/doctors/my-appointments?tab=assigned");
      });

      await test.step("the cancel dialog's buttons keep the case they are written in", async () => {
        await page
          .getByRole("listitem")
          .filter({ hasText: `Dr ${DOCTOR}` })
          .getByRole("link", { name: /^Annuler/ })
          .click();
        const dialog = page.getByRole("dialog");
        const keep = dialog.getByRole("link", { name: "Garder le rendez-vous", exact: true });
        await expect(keep).toBeVisible();
        await expect(keep).toHaveCSS("text-transform", "none");
        await expect(dialog.getByRole("button", { name: "Annuler le rendez-vous", exact: true })).toHaveCSS(
          "text-transform",
          "none",
        );
        await expect(page.locator(".btn-primary, .btn-secondary, .btn-danger, button")).not.toHaveCount(0);
        for (const button of await page.locator(".btn-primary, .btn-secondary, .btn-danger, button").all()) {
          await expect(button).not.toHaveCSS("text-transform", "capitalize");
        }
      });
    });

    test("a doctor reads the dashboard and a booking in French", async ({ page, patient, admin }) => {
      const doctor = await specialist(admin);
      const specialities = await api<{ id: number; name: string }[]>("GET", "/speciality");
      const cardiology = specialities.body.find((s) => s.name === "Cardiology")!.id;
      let booked: { id: string } | undefined;
      for (let attempt = 0; attempt < 10 && !booked; attempt++) {
        const date = openDay(30);
        const created = await api("POST", "/appointment", {
          token: patient.token,
          body: {
            doctorId: doctor.id,
            specialityId: cardiology,
            type: "in-person",
            status: "pending",
            category: "direct",
            date,
            time: "10:00",
          },
        });
        if (created.status < 300) booked = { id: created.body.id };
        else expect(created.status, JSON.stringify(created.body)).toBe(409);
      }
      expect(booked).toBeDefined();

      await signIn(page, doctor.email, "doctor");

      await test.step("the dashboard names the clinic time zone beside today's schedule", async () => {
        await page.goto("/doctor/dashboard");
        await expect(page.getByRole("heading", { level: 2, name: "Planning du jour" })).toBeVisible();
        await expect(page.getByText(zoneLabel)).toBeVisible();
      });

      await test.step("the appointment reads in French: speciality, place, fee and zone", async () => {
        await page.goto(
          `/doctor/appointments?tab=assigned&search=${encodeURIComponent(patient.username)}&appointment=${booked!.id}`,
        );
        await expect(page.getByText(zoneLabel)).toBeVisible();
        const card = page.getByRole("listitem").filter({ hasText: patient.username });
        await expect(card.getByText(/Cardiologie/)).toBeVisible();
        const dialog = page.getByRole("dialog", { name: "Détails du rendez-vous" });
        await expect(dialog.getByText("Cardiologie", { exact: true })).toBeVisible();
        await expect(dialog.getByText(spaced(fee))).toBeVisible();
        await expect(dialog.getByText(new RegExp(`Douala, ${region("CM")}$`))).toBeVisible();
        await expectNoEnglishLeft(dialog);
      });
    });

    test("the admin assigns specialities named in French", async ({ page, admin }) => {
      const { username: name } = await createUnapprovedDoctor();

      await signIn(page, admin.email, "admin");
      const card = await queueCard(page, admin, name);
      const approve = card.getByRole("form", { name: new RegExp(name) }).filter({ has: page.getByRole("checkbox") });
      await expect(approve.getByRole("checkbox", { name: "Cardiologie" })).toHaveCount(1);
      await expect(approve.getByRole("checkbox", { name: "Médecine générale" })).toHaveCount(1);
      await expect(approve.getByRole("checkbox", { name: "ORL" })).toHaveCount(1);
      await expectNoEnglishLeft(approve);
    });
  });
}

test("the same dialog in English writes the fee and the zone the English way", async ({ page, patient, admin }) => {
  const DOCTOR = (await specialist(admin)).username;
  await signIn(page, patient.email, "patient");
  await page.getByRole("searchbox").first().fill(DOCTOR);
  await page.getByRole("button", { name: /^Search/ }).click();
  await page.waitForURL(/search=Didier/);
  await page.getByRole("link", { name: `Book an appointment with Dr. ${DOCTOR}` }).click();
  const dialog = page.getByRole("dialog");
  const english = new Intl.NumberFormat("en", { style: "currency", currency: "XAF", maximumFractionDigits: 0 }).format(
    6000,
  );
  const zone = new Intl.DateTimeFormat("en", { timeZone: "Africa/Douala", timeZoneName: "long" })
    .formatToParts(new Date())
    .find((p) => p.type === "timeZoneName")!.value;
  await expect(dialog.getByText("Cardiology, Internal medicine")).toBeVisible();
  await expect(dialog.getByText(spaced(english))).toHaveCount(2);
  await expect(dialog.getByText(`Time zone: ${zone} (UTC+1)`)).toBeVisible();
  await expect(dialog.getByText(/XAF/)).toHaveCount(0);
});
