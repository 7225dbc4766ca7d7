// Calendars in the browser (docs/calendars.md): 'Add to my calendar' on an appointment for its
// patient and its doctor, and the private feed in the settings page: created, fetched by a
// calendar application with no session, stopped. JavaScript off and on; English and French.
import fs from "node:fs";
import ICAL from "ical.js";
import type { Page } from "@playwright/test";
import { expect, test } from "./support.ts";
import { book, generalPractice, signIn } from "./doctor-helpers.ts";
import { newPatient, newVerifiedDoctor } from "./fixtures.ts";
import { overflowAt, smallTargets } from "./layout-support.ts";

const events = (text: string) =>
  new ICAL.Component(ICAL.parse(text)).getAllSubcomponents("vevent").map((v) => new ICAL.Event(v));

async function download(page: Page, name: string) {
  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).click()]);
  return fs.readFileSync((await file.path())!, "utf8");
}

/** Nothing sticks out sideways and every control is big enough to tap, at this project's width. */
async function fits(page: Page) {
  expect(await overflowAt(page, page.viewportSize()!.width)).toEqual([]);
  expect(await smallTargets(page)).toEqual([]);
}

async function french(page: Page, baseURL: string | undefined) {
  await page.context().addCookies([{ name: "i18nextLng", value: "fr", url: baseURL ?? "http://127.0.0.1:3100" }]);
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("the patient and the doctor download the appointment as one calendar entry; nobody else can", async ({
      page,
      browser,
      baseURL,
      a11y,
    }) => {
      const gp = await generalPractice();
      const doctor = await newVerifiedDoctor(gp);
      const patient = await newPatient();
      const booked = await book(patient, doctor.id, gp);

      await signIn(page, patient.email, "patient");
      await page.goto(`/health/doctors/my-appointments?appointment=${booked.id}`);
      const dialog = page.getByRole("dialog");
      await expect(dialog.getByRole("link", { name: "Add to my calendar (.ics)" })).toBeVisible();
      await fits(page);
      await a11y();
      const file = await download(page, "Add to my calendar (.ics)");
      expect(file).toContain(
        `DTSTART;TZID=Africa/Douala:${booked.date.replaceAll("-", "")}T${booked.time.replace(":", "")}00`,
      );
      const [forPatient] = events(file);
      expect(forPatient!.uid).toBe(`${booked.id}@appointments.healthbook`);
      expect(forPatient!.summary).toBe(`Appointment with Dr. ${doctor.username}`);
      expect(forPatient!.startDate.toString()).toBe(`${booked.date}T${booked.time}:00`);
      // No video service is configured on this server: no link and no hint, for this online appointment.
      await expect(dialog.getByText(/video consultation/)).toHaveCount(0);

      // Another patient, signed in, gets nothing.
      const stranger = await newPatient();
      const other = await browser.newContext({ javaScriptEnabled });
      const otherPage = await other.newPage();
      await signIn(otherPage, stranger.email, "patient");
      const refused = await otherPage.request.get(`/appointments/${booked.id}/calendar`);
      expect(refused.status()).toBe(404);
      expect(await refused.text()).not.toContain("BEGIN:VCALENDAR");
      await other.close();

      // The doctor, in French: the same entry, naming the patient.
      await page.context().clearCookies();
      await signIn(page, doctor.email, "doctor");
      await french(page, baseURL);
      await page.goto(`/doctor/appointments?appointment=${booked.id}`);
      const [forDoctor] = events(await download(page, "Ajouter à mon agenda (.ics)"));
      expect(forDoctor!.uid).toBe(forPatient!.uid);
      expect(forDoctor!.summary).toBe(`Rendez-vous avec ${patient.username}`);
      expect(forDoctor!.startDate.toString()).toBe(forPatient!.startDate.toString());
    });

    test("the settings page makes a private feed address that works without a session, and stops it", async ({
      page,
      playwright,
      baseURL,
      a11y,
    }) => {
      const gp = await generalPractice();
      const doctor = await newVerifiedDoctor(gp);
      const patient = await newPatient();
      const booked = await book(patient, doctor.id, gp);
      await signIn(page, doctor.email, "doctor");
      await page.goto("/settings");
      const card = page.getByRole("region", { name: "Calendar subscription" });
      await expect(card.getByText("You have no calendar subscription.")).toBeVisible();
      await card.getByRole("button", { name: "Create my calendar address" }).click();
      await expect(card.getByText("Here is your private calendar address. Copy it now")).toBeVisible();
      const address = await card.getByLabel("Your private calendar address").inputValue();
      expect(address).toMatch(new RegExp(`^${baseURL}/calendar/feed/[A-Za-z0-9_-]{43}\\.ics$`));
      await expect(card.getByRole("link", { name: "Open in my calendar app" })).toHaveAttribute(
        "href",
        address.replace(/^http:/, "webcal:"),
      );
      await fits(page);
      await a11y();

      // A calendar application: no cookies at all.
      const calendarApp = await playwright.request.newContext();
      const feed = await calendarApp.get(address);
      expect(feed.status()).toBe(200);
      expect(feed.headers()["content-type"]).toBe("text/calendar; charset=utf-8");
      const listed = events(await feed.text());
      expect(listed.map((e) => e.uid)).toContain(`${booked.id}@appointments.healthbook`);
      expect(listed.find((e) => e.uid.startsWith(booked.id))!.summary).toBe(`Appointment with ${patient.username}`);

      // The address is shown once: the page read again says the feed is on, not where.
      await page.goto("/settings");
      await expect(card.getByText(/^Your calendar subscription has been active since /)).toBeVisible();
      await expect(card.getByLabel("Your private calendar address")).toHaveCount(0);
      expect(await page.content()).not.toContain(address.split("/").pop()!);

      await french(page, baseURL);
      await page.goto("/settings");
      const carte = page.getByRole("region", { name: "Abonnement d'agenda" });
      await carte.getByRole("button", { name: "Arrêter l'abonnement" }).click();
      await expect(
        page.getByText("Votre abonnement d'agenda est arrêté : son adresse ne fonctionne plus."),
      ).toBeVisible();
      await expect(carte.getByText("Vous n'avez pas d'abonnement d'agenda.")).toBeVisible();
      expect((await calendarApp.get(address)).status()).toBe(404);

      // A new address works, and renewing it ends the one before.
      await carte.getByRole("button", { name: "Créer mon adresse d'agenda" }).click();
      const second = await carte.getByLabel("Votre adresse d'agenda privée").inputValue();
      expect((await calendarApp.get(second)).status()).toBe(200);
      await page.goto("/settings");
      await carte.getByRole("button", { name: "Obtenir une nouvelle adresse" }).click();
      const third = await carte.getByLabel("Votre adresse d'agenda privée").inputValue();
      expect(third).not.toBe(second);
      expect((await calendarApp.get(second)).status()).toBe(404);
      expect((await calendarApp.get(third)).status()).toBe(200);
      await calendarApp.dispose();
    });
  });
}
