// The bell's list (what needs my attention, each entry a link to its appointment, seen once shown)
// and the patient's 'Who saw my data' (docs/product.md, The bell and Who saw my data).
import type { Page } from "@playwright/test";
import { checkA11y, expect, test } from "./support.ts";
import { api, book, generalPractice, PASSWORD, signIn } from "./doctor-helpers.ts";
import { newPatient, newVerifiedDoctor } from "./fixtures.ts";
import { formatDate } from "../../app/format.ts";

/** A speciality no other journey books or requests, so a fresh doctor's bell holds only this test's notices. */
async function quietSpeciality() {
  const list = await api<{ id: number; name: string }[]>("GET", "/speciality");
  return list.body.find((s) => s.name === "Psychiatry")!.id;
}

/** A patient whose booking the doctor confirmed: one notice on the patient's bell. */
async function confirmedBooking() {
  const gp = await generalPractice();
  const [patient, doctor] = await Promise.all([newPatient(), newVerifiedDoctor(gp)]);
  const booked = await book(patient, doctor.id, gp);
  expect(
    (await api("PUT", `/appointment/${booked.id}`, { token: doctor.token, body: { status: "confirmed" } })).status,
  ).toBe(200);
  return { patient, doctor, booked };
}

/** Today in the clinic zone (UTC+1 all year), as the access list dates its events. */
const clinicToday = () => new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);

async function signInFrench(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Mot de passe").fill(PASSWORD);
  await page.getByRole("button", { name: /^se connecter$/i }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the bell (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("the patient opens the bell, sees the doctor's confirmation as new, and it leads to the appointment", async ({
      page,
    }) => {
      const { patient, doctor, booked } = await confirmedBooking();
      await signIn(page, patient.email, "patient");

      await page.getByRole("link", { name: "Notifications: 1 item needs your attention" }).click();
      await expect(page).toHaveURL(/\/notifications$/);
      const entry = page.getByRole("list", { name: "Notifications" }).getByRole("listitem");
      await expect(entry).toHaveCount(1);
      const text = `Dr. ${doctor.username} confirmed your appointment on ${formatDate(booked.date, "en")} at ${booked.time}`;
      await expect(entry.getByRole("link", { name: text })).toBeVisible();
      await expect(entry.getByText("New", { exact: true })).toBeVisible();
      await checkA11y(page);
      // Shown, so seen: the bell on this very page no longer counts it, nor does the next view.
      await expect(page.getByRole("link", { name: "Notifications: 0 items need your attention" })).toBeVisible();
      await page.reload();
      await expect(entry.getByText("New", { exact: true })).toHaveCount(0);

      await entry.getByRole("link", { name: text }).click();
      await expect(page).toHaveURL(
        new RegExp(`/health/doctors/my-appointments\\?tab=assigned&appointment=${booked.id}$`),
      );
      await expect(page.getByRole("dialog")).toBeVisible();
      await expect(page.getByRole("dialog")).toContainText(`Dr. ${doctor.username}`);
    });

    test("the doctor's bell lists each booking, pages like the other lists, and marks everything seen at once", async ({
      page,
    }) => {
      const speciality = await quietSpeciality();
      const [patient, doctor] = await Promise.all([newPatient(), newVerifiedDoctor(speciality)]);
      const bookings = [];
      // One more than a page holds.
      for (let i = 0; i < 21; i++) bookings.push(await book(patient, doctor.id, speciality));
      await signIn(page, doctor.email, "doctor");
      await expect(page.getByRole("link", { name: "Notifications: 21 items need your attention" })).toBeVisible();

      await page.getByRole("link", { name: "Notifications: 21 items need your attention" }).click();
      const entries = page.getByRole("list", { name: "Notifications" }).getByRole("listitem");
      await expect(entries).toHaveCount(20);
      await expect(page.getByText("1 notification not yet seen on other pages.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Notifications: 1 item needs your attention" })).toBeVisible();
      const newest = bookings.at(-1)!;
      await expect(entries.first().getByRole("link")).toHaveText(
        `${patient.username} booked an appointment on ${formatDate(newest.date, "en")} at ${newest.time}`,
      );

      await page.getByRole("button", { name: "Mark all as seen" }).click();
      await expect(page.getByText("All notifications are marked as seen")).toBeVisible();
      await expect(page.getByRole("link", { name: "Notifications: 0 items need your attention" })).toBeVisible();
      await page.getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(/\/notifications\?page=2$/);
      await expect(entries).toHaveCount(1);
      await expect(entries.getByText("New", { exact: true })).toHaveCount(0);

      const oldest = bookings[0]!;
      await entries.getByRole("link").click();
      await expect(page).toHaveURL(new RegExp(`/doctor/appointments\\?appointment=${oldest.id}$`));
      await expect(page.getByRole("dialog", { name: "Appointment details" })).toBeVisible();
    });

    test("who saw my data: the patient's profile lists the doctor who saw their appointment", async ({
      page,
      browser,
    }) => {
      const { patient, doctor } = await confirmedBooking();
      // The doctor signs in, in their own browser, onto their appointments: the patient's is listed.
      const doctorContext = await browser.newContext({ javaScriptEnabled });
      const doctorPage = await doctorContext.newPage();
      await signIn(doctorPage, doctor.email, "doctor");
      await expect(doctorPage.getByRole("main")).toContainText(patient.username);
      await doctorContext.close();

      await signIn(page, patient.email, "patient");
      await page.getByLabel("Account menu").click();
      await page.getByRole("link", { name: "Profile", exact: true }).click();
      await page.getByRole("link", { name: "Who saw my data" }).click();
      await expect(page).toHaveURL(/\/patient\/profile\/access$/);
      const events = page.getByRole("list", { name: "Who saw my data" }).getByRole("listitem");
      const seen = events.filter({ hasText: "Saw your appointment in a list" });
      await expect(seen.first()).toContainText(`${doctor.username} · Doctor`);
      await expect(seen.first()).toContainText(formatDate(clinicToday(), "en"));
      // The doctor's confirmation is a change, listed too.
      await expect(events.filter({ hasText: "Changed one of your appointments" })).toContainText(doctor.username);
      await expect(page.getByText("Time zone: West Africa Time (UTC+1)")).toBeVisible();
      await checkA11y(page);
    });
  });
}

test.describe("in French on a phone, without JavaScript", () => {
  test.use({ javaScriptEnabled: false, locale: "fr-FR", viewport: { width: 360, height: 740 } });

  test("the bell and who saw my data speak French", async ({ page }) => {
    const { patient, doctor, booked } = await confirmedBooking();
    expect((await api("GET", `/doctor/doctor_appointments/${booked.id}`, { token: doctor.token })).status).toBe(200);
    await signInFrench(page, patient.email);

    const bell = page.getByRole("link", { name: "Notifications : 1 élément demande votre attention" });
    await expect(bell).toBeInViewport();
    await bell.click();
    const entry = page.getByRole("list", { name: "Notifications" }).getByRole("listitem");
    await expect(entry.getByRole("link")).toHaveText(
      `Dr ${doctor.username} a confirmé votre rendez-vous du ${formatDate(booked.date, "fr")} à ${booked.time}`,
    );
    await expect(entry.getByText("Nouveau", { exact: true })).toBeVisible();
    await expect(page.getByText("Tout a été vu.")).toBeVisible();
    // Nothing overflows the phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    await page.goto("/patient/profile");
    await page.getByRole("link", { name: "Qui a vu mes données" }).click();
    const events = page.getByRole("list", { name: "Qui a vu mes données" }).getByRole("listitem");
    const opened = events.filter({ hasText: "A ouvert un de vos rendez-vous" });
    await expect(opened).toContainText(`${doctor.username} · Médecin`);
    await expect(opened).toContainText(formatDate(clinicToday(), "fr"));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});

test.describe("who saw my data is the patient's own", () => {
  test.use({ javaScriptEnabled: false });

  test("a doctor is sent to their own home, and nobody signed in to the login", async ({ page }) => {
    await page.goto("/patient/profile/access");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fpatient%2Fprofile%2Faccess$/);
    const doctor = await newVerifiedDoctor(await generalPractice());
    await signIn(page, doctor.email, "doctor");
    await page.goto("/patient/profile/access");
    await expect(page).toHaveURL(/\/doctor\//);
    await expect(page.getByRole("list", { name: "Who saw my data" })).toHaveCount(0);
  });
});
