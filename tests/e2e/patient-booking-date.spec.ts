// A patient changes the date in the book dialog and books: the appointment is on the date the
// field shows, whether or not its times were reloaded first; a time taken on that date brings the
// dialog back on that date, asking for another time. Never the date shown before.
import type { Page } from "@playwright/test";
import { expect, test } from "./support.ts";
import { api, futureSlot, signIn } from "./doctor-helpers.ts";
import { freshPatient } from "./patient-helpers.ts";

const DOCTOR = "Charles Nana";

async function charlesNana(token: string): Promise<string> {
  const found = await api("GET", `/doctor?search=${encodeURIComponent(DOCTOR)}`, { token });
  const id = found.body.doctors?.[0]?.id;
  if (!id) throw new Error(`${DOCTOR} is missing from /doctor`);
  return id;
}

/** The patient's appointments with that doctor, as the API has them. */
async function bookedDates(token: string, doctorId: string): Promise<string[]> {
  const list = await api("GET", "/appointment?limit=100", { token });
  return list.body.appointments.filter((a: { doctorId: string; status: string }) => a.doctorId === doctorId && a.status !== "cancelled").map((a: { date: string }) => a.date);
}

/** Two different far days, so runs do not collide on the doctor's slots. */
function twoDays() {
  const first = futureSlot(30).date;
  let second = futureSlot(30).date;
  while (second === first) second = futureSlot(30).date;
  return { first, second };
}

/** Whether `time` is still free with the doctor on `date` (other tests book the same doctor). */
async function free(token: string, doctorId: string, date: string, time: string) {
  const slots = await api<{ time: string; available: boolean }[]>("GET", `/appointment/slots?doctorId=${doctorId}&date=${date}`, { token });
  return slots.body.some((slot) => slot.time === time && slot.available);
}

async function openDialogOn(page: Page, doctorId: string, date: string) {
  await page.goto(`/health/doctors?book=${doctorId}&date=${date}`);
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Date")).toHaveValue(date);
  return dialog;
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the book dialog books the date it shows (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("a date changed without reloading the times is the date booked", async ({ page }) => {
      const patient = await freshPatient();
      const doctorId = await charlesNana(patient.token);
      const { first, second } = twoDays();
      await signIn(page, patient.email, "patient");
      const dialog = await openDialogOn(page, doctorId, first);

      await test.step("change the date, then choose a type and a time without pressing 'Show available times'", async () => {
        // Hydrated once the no-JavaScript button is gone; from then on a new date loads its times by itself.
        if (javaScriptEnabled) await expect(dialog.getByRole("button", { name: "Show available times" })).toHaveCount(0);
        await dialog.getByLabel("Date").fill(second);
        if (javaScriptEnabled) await page.waitForURL(new RegExp(`date=${second}`));
        await dialog.getByRole("radio", { name: "Online" }).check();
        await dialog.locator('input[name="time"]:not([disabled])').first().check();
        await dialog.getByRole("button", { name: "Book appointment" }).click();
        await expect(page.getByText("Appointment created successfully!")).toBeVisible();
      });

      await test.step("the appointment is on the date the field showed", async () => {
        expect(await bookedDates(patient.token, doctorId)).toEqual([second]);
      });
    });
  });
}

test.describe("without JavaScript, a changed date whose time is taken", () => {
  test.use({ javaScriptEnabled: false });

  test("comes back on the new date asking for another time, and books nothing", async ({ page }) => {
    const patient = await freshPatient();
    const other = await freshPatient();
    const doctorId = await charlesNana(patient.token);
    // Two days where 09:00 is free on the first and 10:00 on the second, then someone else takes
    // 09:00 on the second day. Other tests book the same doctor on random days: pick again if so.
    let days: { first: string; second: string } | undefined;
    for (let attempt = 0; attempt < 20 && !days; attempt++) {
      const { first, second } = twoDays();
      if (!(await free(patient.token, doctorId, first, "09:00")) || !(await free(patient.token, doctorId, second, "10:00"))) continue;
      const held = await api("POST", "/appointment", { token: other.token, body: { doctorId, type: "online", status: "pending", category: "direct", date: second, time: "09:00" } });
      if (held.status === 409) continue;
      expect(held.status, JSON.stringify(held.body)).toBeLessThan(300);
      days = { first, second };
    }
    if (!days) throw new Error("no two free days found for the demo doctor");
    const { first, second } = days;

    await signIn(page, patient.email, "patient");
    const dialog = await openDialogOn(page, doctorId, first);
    await dialog.getByRole("radio", { name: "Online" }).check();
    await dialog.getByRole("radio", { name: "09:00" }).check();
    await dialog.getByLabel("Date").fill(second);
    await dialog.getByRole("button", { name: "Book appointment" }).click();

    await expect(dialog.getByRole("alert")).toContainText("This time slot has just been taken");
    await expect(dialog.getByLabel("Date")).toHaveValue(second);
    await expect(dialog.getByRole("radio", { name: "09:00" })).toBeDisabled();
    await expect(dialog.locator('input[name="time"]:checked')).toHaveCount(0);
    expect(await bookedDates(patient.token, doctorId)).toEqual([]);

    await test.step("another time that day is then booked on that day", async () => {
      await dialog.getByRole("radio", { name: "10:00" }).check();
      await dialog.getByRole("button", { name: "Book appointment" }).click();
      await expect(page.getByText("Appointment created successfully!")).toBeVisible();
      expect(await bookedDates(patient.token, doctorId)).toEqual([second]);
    });
  });
});
