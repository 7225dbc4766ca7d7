// Dialogs whose code loads after the page is interactive (docs/decisions/0003-first-load-javascript-budget.md):
// a page opened with the dialog in its URL shows the server's dialog at once, keeps it while the
// dialog's module is still on its way (its forms post as without JavaScript), and enhances it once
// the module has arrived; a dialog opened from the interactive page shows once its module has come.
// The flash toast's code loads the same way.
import type { Locator, Page } from "@playwright/test";
import { api, book, openDay, passProfileGate, signIn } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { holdModule, shownApplyButtons } from "./support.ts";

test.describe("a dialog opened by its URL (JavaScript on)", () => {
  test("the book dialog stays while its code loads, then reloads the times when the date changes", async ({
    page,
    patient,
    doctor,
  }) => {
    const dialogs = await holdModule(page, /\/assets\/doctor-dialogs-[^/]+\.js$/);
    await signIn(page, patient.email, "patient");
    dialogs.asked = false;
    await page.goto(`/health/doctors?book=${doctor.id}`);
    const dialog = page.getByRole("dialog", { name: "Book an appointment" });
    await expect(dialog.getByText(`Dr. ${doctor.username}`)).toBeVisible();
    await expect(dialog).toBeVisible();
    // The module is asked for once the scripts run (it is not in the page's first load) and held:
    // the server's dialog, with its no-JavaScript button, is what the patient sees meanwhile.
    await expect.poll(() => dialogs.asked).toBe(true);
    const show = dialog.getByRole("button", { name: "Show available times" });
    await expect(show).toBeVisible();

    dialogs.release();
    // Hydrated: the button gives way to the enhancement, a date change reloads the times in place.
    await expect(show).toHaveCount(0);
    const date = openDay(40);
    await dialog.locator('input[type="date"]').fill(date);
    await page.waitForURL(new RegExp(`date=${date}`));
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("radio", { name: /^\d\d:\d\d$/ }).first()).toBeVisible();
  });

  test("the module is not part of the first load", async ({ page, patient }) => {
    await signIn(page, patient.email, "patient");
    const html = await (await page.request.get("/health/doctors")).text();
    expect(html).toMatch(/assets\/doctors-[^"]+\.js/);
    expect(html).not.toMatch(/doctor-dialogs-/);
  });
});

/** Confirms the patient's cancel dialog; the appointment is cancelled, as the API says. */
async function confirmCancel(page: Page, dialog: Locator, patient: { token: string }, appointmentId: string) {
  await dialog.getByRole("button", { name: "Cancel Appointment" }).click();
  await expect(page.getByText("Appointment cancelled successfully!")).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const status = await api("GET", `/appointment/${appointmentId}`, { token: patient.token });
  expect(status.body.status).toBe("cancelled");
}

// The appointment lists' dialog modules, the patient's and the doctor's.
const listDialogs = /\/assets\/appointment-dialogs-[^/]+\.js$/;

/** Holds `page`'s list dialogs back, signs `who` in and opens `path`. */
async function openWithListDialogsHeld(page: Page, who: { email: string }, role: "patient" | "doctor", path: string) {
  const dialogs = await holdModule(page, listDialogs);
  await signIn(page, who.email, role);
  await page.goto(path);
  return dialogs;
}

test.describe("an appointment list's dialogs, whose code loads after the page (JavaScript on)", () => {
  test("the patient's cancel dialog opened by its URL works while its code is held: the form posts as without JavaScript", async ({
    page,
    patient,
    doctor,
    generalPractice,
  }) => {
    const booked = await book(patient, doctor.id, generalPractice);
    const dialogs = await openWithListDialogsHeld(
      page,
      patient,
      "patient",
      `/health/doctors/my-appointments?tab=assigned&cancel=${booked.id}`,
    );
    const dialog = page.getByRole("dialog", { name: "Cancel appointment?" });
    await expect(dialog).toBeVisible();
    // The page asked for the module, which is held: what the patient has is the server's dialog.
    await expect.poll(() => dialogs.asked).toBe(true);

    await confirmCancel(page, dialog, patient, booked.id);
    dialogs.release();
  });

  test("the patient's Cancel, clicked before the dialog's code has come, opens the dialog once it has, with the focus in it", async ({
    page,
    patient,
    doctor,
    generalPractice,
  }) => {
    const booked = await book(patient, doctor.id, generalPractice);
    const dialogs = await openWithListDialogsHeld(
      page,
      patient,
      "patient",
      "/health/doctors/my-appointments?tab=assigned",
    );
    // Not with the page: asked for at the user's first act on the interactive page (here the press
    // on Cancel), and held.
    await expect(shownApplyButtons(page)).toHaveCount(0);
    expect(dialogs.asked).toBe(false);
    const cancel = page.getByRole("link", { name: `Cancel: Dr. ${doctor.username}` });
    await cancel.click();
    await expect.poll(() => dialogs.asked).toBe(true);
    const dialog = page.getByRole("dialog", { name: "Cancel appointment?" });

    dialogs.release();
    await expect(dialog).toBeVisible();
    await expect(dialog).toBeFocused();
    await expect(page).toHaveURL(new RegExp(`cancel=${booked.id}`));
    await confirmCancel(page, dialog, patient, booked.id);
  });

  test("the doctor's details dialog opened by its URL stays while its code is held, and its Confirm posts as without JavaScript", async ({
    page,
    patient,
    doctor,
    generalPractice,
  }) => {
    const booked = await book(patient, doctor.id, generalPractice);
    const dialogs = await openWithListDialogsHeld(
      page,
      doctor,
      "doctor",
      `/doctor/appointments?appointment=${booked.id}`,
    );
    const dialog = page.getByRole("dialog", { name: "Appointment details" });
    await expect(dialog.getByText(patient.username)).toBeVisible();
    await expect.poll(() => dialogs.asked).toBe(true);

    await dialog.getByRole("button", { name: "Confirm" }).click();
    await expect(page.getByText("Appointment confirmed")).toBeVisible();
    dialogs.release();
    const status = await api("GET", `/appointment/${booked.id}`, { token: doctor.token });
    expect(status.body.status).toBe("confirmed");
  });

  test("the doctor's Cancel, clicked before the dialog's code has come, opens the dialog once it has", async ({
    page,
    patient,
    doctor,
    generalPractice,
  }) => {
    await book(patient, doctor.id, generalPractice);
    const dialogs = await openWithListDialogsHeld(page, doctor, "doctor", "/doctor/appointments");
    // Interactive (the language menu's Apply button hidden), the dialogs' code not asked for yet.
    await expect(shownApplyButtons(page)).toHaveCount(0);
    expect(dialogs.asked).toBe(false);
    await page.getByRole("link", { name: `Cancel appointment with ${patient.username}` }).click();
    await expect.poll(() => dialogs.asked).toBe(true);
    const dialog = page.getByRole("dialog", { name: "Cancel this appointment?" });

    dialogs.release();
    await expect(dialog).toBeVisible();
    await expect(dialog).toBeFocused();
    await dialog.getByRole("button", { name: "Cancel the appointment" }).click();
    await expect(page.getByText("Appointment cancelled")).toBeVisible();
    await expect(dialog).toHaveCount(0);
  });

  test("a dialog whose code cannot be loaded (a flaky network) still opens, from the server, and its page is never an error page", async ({
    page,
    patient,
    doctor,
    generalPractice,
  }) => {
    const booked = await book(patient, doctor.id, generalPractice);
    let failed = 0;
    await page.route(listDialogs, (route) => {
      failed++;
      return route.abort("connectionreset");
    });
    await signIn(page, patient.email, "patient");

    // Opened from its card once the page is interactive: the page is asked of the server.
    await page.goto("/health/doctors/my-appointments?tab=assigned");
    await expect(shownApplyButtons(page)).toHaveCount(0);
    await page.getByRole("link", { name: `Cancel: Dr. ${doctor.username}` }).click();
    await expect.poll(() => failed).toBeGreaterThan(0);
    const dialog = page.getByRole("dialog", { name: "Cancel appointment?" });
    await expect(dialog).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`cancel=${booked.id}`));

    // Opened by its URL: the page cannot hydrate, and stays the server's, which works as without JavaScript.
    await page.reload();
    await expect(dialog).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(/error|wrong/i);
    await confirmCancel(page, dialog, patient, booked.id);
  });

  test("neither list sends its dialogs' code with the page", async ({ page, patient, doctor }) => {
    await signIn(page, patient.email, "patient");
    const patientPage = await (await page.request.get("/health/doctors/my-appointments")).text();
    expect(patientPage).toMatch(/assets\/my-appointments-[^"]+\.js/);
    expect(patientPage).not.toMatch(/appointment-dialogs-|assets\/dialog-/);
    await page.context().clearCookies();
    await signIn(page, doctor.email, "doctor");
    const doctorPage = await (await page.request.get("/doctor/appointments")).text();
    expect(doctorPage).toMatch(/assets\/appointments-[^"]+\.js/);
    expect(doctorPage).not.toMatch(/appointment-dialogs-|assets\/dialog-/);
  });
});

test.describe("the doctor's profile, whose view, edit form and deletion dialog load after the page (JavaScript on)", () => {
  test("the code gate's page does not send them", async ({ page, doctor, signIn }) => {
    await signIn(doctor);
    const html = await (await page.request.get("/doctor/profile")).text();
    expect(html).toMatch(/assets\/code-input-[^"]+\.js/);
    expect(html).not.toMatch(/assets\/(profile-view|profile-form|country-city|delete-account-dialog)-/);
  });

  for (const part of [
    // Shown by the server, then validated in the browser once its code has come.
    {
      query: "edit=1",
      module: /\/assets\/profile-form-[^/]+\.js$/,
      shown: (page: Page) => page.getByRole("button", { name: "Save" }),
      works: async (page: Page) => {
        const name = page.getByLabel("Username");
        await name.fill("A");
        await expect(async () => {
          await name.focus();
          await name.blur();
          await expect(page.getByText("Username must be at least 3 characters")).toBeVisible({ timeout: 1_000 });
        }).toPass();
      },
    },
    {
      query: "delete=1",
      module: /\/assets\/delete-account-dialog-[^/]+\.js$/,
      shown: (page: Page) => page.getByRole("dialog", { name: "Delete your account?" }),
      works: (page: Page) => expect(page.getByRole("dialog", { name: "Delete your account?" })).toBeVisible(),
    },
  ]) {
    test(`opened with ?${part.query}, that part is asked for with the view, not once the view has come`, async ({
      page,
      doctor,
      signIn,
    }) => {
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
      await part.works(page);
    });
  }
});

test.describe("the flash toast, whose code loads after the page (JavaScript on)", () => {
  test("a page landed on with a toast shows it from the server, and hydrates once the toast's code has come", async ({
    page,
    patient,
  }) => {
    const toaster = await holdModule(page, /\/assets\/toaster-[^/]+\.js$/);
    // Signing in leaves a toast for the page it lands on.
    await signIn(page, patient.email, "patient");
    await expect(page.getByRole("status").filter({ hasText: "Login successful" })).toBeVisible();
    // Its code is a file of its own, asked for once the scripts run; held, the page stays the
    // server's (the language menus keep the Apply button shown until hydration hides it).
    await expect.poll(() => toaster.asked).toBe(true);
    const apply = shownApplyButtons(page);
    await expect(apply).not.toHaveCount(0);
    toaster.release();
    await expect(apply).toHaveCount(0);
  });
});
