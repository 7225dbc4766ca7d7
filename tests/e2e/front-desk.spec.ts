// The clinic's front desk (docs/product.md, The front desk), as a receptionist works it: a patient
// record made by name and phone, a booking for them in the patient's own book dialog, the arrival of
// today's patient, a walk-in; then the doctor's waiting room lists both in the order they are due
// and calls one in. A text message reaches the test SMPP gateway (tests/e2e/server.ts) only for the
// patient who consented. JavaScript off and on, English and French, on the phone and the desktop.
// Today's booked appointment comes from the operator's demo command (the API never books a past slot).
import type { Page } from "@playwright/test";
import { api, enterCode, newCode, openDay, PASSWORD, signIn, uniqueName } from "./doctor-helpers.ts";
import {
  createDoctor,
  createPatient,
  createReceptionist,
  expect,
  mainMenu,
  pastAppointments,
  randomMobile,
  test,
  todayAppointment,
  type Account,
  type Language,
} from "./fixtures.ts";
import { checkA11y, latestSmsCode, smsTo, uniqueEmail } from "./support.ts";
import { overflowAt } from "./layout-support.ts";

const WORDS = {
  en: {
    patients: "Patients",
    name: "Full name",
    phone: "Phone",
    consent: "The patient agrees to receive text messages about their appointments",
    create: "Create the record",
    phoneInvalid: "Enter a valid phone number",
    created: (name: string) => `Record of ${name} created.`,
    bookWith: (doctor: string) => `Book with Dr ${doctor}`,
    bookTitle: (name: string) => `Book for ${name}`,
    showTimes: "Show available times",
    inPerson: "In person",
    book: "Book appointment",
    booked: (name: string) => `Appointment booked for ${name}.`,
    daySheet: "Day sheet",
    expected: "Booked",
    waiting: "In the waiting room",
    arrived: "Arrived",
    arrivalRecorded: (name: string) => `Arrival of ${name} recorded.`,
    walkInPhone: "Patient's phone",
    walkInDoctor: "Doctor",
    walkIn: "Record the walk-in",
    walkInRecorded: (name: string) => `Walk-in of ${name} recorded.`,
    walkInTag: "Walk-in",
    queue: "Waiting room",
    callIn: "Call in",
    called: (name: string) => `${name} called in.`,
    withDoctor: "With the doctor",
    search: "Phone or name",
    searchSubmit: "Search",
    claimLocked: "Sign-up locked after 5 wrong dates of birth",
    claimUnlock: "Unlock sign-up",
    claimUnlocked: (name: string) => `Sign-up of ${name} unlocked: they can try again with their date of birth.`,
  },
  fr: {
    patients: "Patients",
    name: "Nom complet",
    phone: "Téléphone",
    consent: "Le patient accepte de recevoir des SMS au sujet de ses rendez-vous",
    create: "Créer la fiche",
    phoneInvalid: "Saisissez un numéro de téléphone valide",
    created: (name: string) => `Fiche de ${name} créée.`,
    bookWith: (doctor: string) => `Prendre rendez-vous avec le Dr ${doctor}`,
    bookTitle: (name: string) => `Rendez-vous pour ${name}`,
    showTimes: "Afficher les horaires disponibles",
    inPerson: "En présentiel",
    book: "Réserver le rendez-vous",
    booked: (name: string) => `Rendez-vous pris pour ${name}.`,
    daySheet: "Journée",
    expected: "Prévu",
    waiting: "En salle d'attente",
    arrived: "Arrivé(e)",
    arrivalRecorded: (name: string) => `Arrivée de ${name} enregistrée.`,
    walkInPhone: "Téléphone du patient",
    walkInDoctor: "Médecin",
    walkIn: "Enregistrer le passage",
    walkInRecorded: (name: string) => `Passage sans rendez-vous de ${name} enregistré.`,
    walkInTag: "Sans rendez-vous",
    queue: "Salle d'attente",
    callIn: "Appeler",
    called: (name: string) => `${name} appelé(e) en consultation.`,
    withDoctor: "En consultation",
    search: "Téléphone ou nom",
    searchSubmit: "Rechercher",
    claimLocked: "Inscription bloquée après 5 dates de naissance erronées",
    claimUnlock: "Débloquer l'inscription",
    claimUnlocked: (name: string) =>
      `Inscription de ${name} débloquée : la personne peut réessayer avec sa date de naissance.`,
  },
} as const;

/** The clinic's wall clock now (Africa/Douala, the test server's APP_TIMEZONE default). */
const clinicNow = () =>
  new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: "Africa/Douala",
  }).format(new Date());

/** A desk record made through the API, without consent to text messages. */
async function deskRecord(receptionist: Account, username: string, dateOfBirth?: string) {
  const phone = `+237${randomMobile()}`;
  const made = await api("POST", "/reception/patients", {
    token: receptionist.token,
    body: { username, phone, language: "fr", dateOfBirth },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { id: made.body.id as string, username, phone };
}

/** A button's name that starts with `label` (the row's patient follows it for screen readers). */
const startingWith = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);

/** The row of `name` on the day sheet. */
const rowOf = (page: Page, name: string) => page.getByRole("listitem").filter({ hasText: name });

async function fits(page: Page, phone: boolean) {
  if (phone) expect(await overflowAt(page, 320)).toEqual([]);
}

for (const language of ["en", "fr"] as Language[]) {
  for (const javaScriptEnabled of [false, true]) {
    test.describe(`the front desk (${language}, JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
      test.use({ language, javaScriptEnabled });
      const w = WORDS[language];

      test("the desk records a patient by phone, books for them, marks an arrival and a walk-in; the doctor calls one in", async ({
        page,
        browser,
        admin,
        doctor,
      }, testInfo) => {
        test.setTimeout(240_000);
        const phone = testInfo.project.name === "phone";
        if (phone) await page.setViewportSize({ width: 320, height: 740 });
        const desk = await createReceptionist(admin, [doctor]);
        // Today's booked patient, an online account; a walk-in, a desk record without consent, who
        // also has a booking made at the desk (no text message may reach them).
        const today = await createPatient();
        await todayAppointment(doctor, today);
        const walker = await deskRecord(desk, uniqueName("Walker"));
        const quiet = await api("POST", "/reception/appointments", {
          token: desk.token,
          body: { patientId: walker.id, doctorId: doctor.id, type: "in-person", date: openDay(30), time: "09:00" },
        });
        expect(quiet.status, JSON.stringify(quiet.body)).toBe(201);
        const newcomer = { name: uniqueName("Newcomer"), phone: randomMobile() };
        const e164 = `+237${newcomer.phone}`;

        await signIn(page, desk.email, "receptionist");
        await expect(page).toHaveURL(/\/reception$/);

        await test.step("a number written right but in no numbering plan is refused by the server", async () => {
          await page.goto("/reception/patients");
          await page.getByLabel(w.name).fill(newcomer.name);
          const field = page.getByLabel(w.phone, { exact: true });
          await field.fill("123 456 789");
          await page.getByRole("button", { name: w.create }).click();
          await expect(page.getByText(w.phoneInvalid)).toBeVisible();
          await expect(field).toHaveAttribute("aria-invalid", "true");
          await expect(field).toHaveValue("123 456 789");
          await expect(page.getByLabel(w.name)).toHaveValue(newcomer.name);
        });

        await test.step("a new patient by name and phone, who agrees to text messages", async () => {
          await page.getByLabel(w.name).fill(newcomer.name);
          // As people write it: spaces, no +237.
          await page
            .getByLabel(w.phone, { exact: true })
            .fill(newcomer.phone.replace(/(\d)(\d\d)(\d\d)(\d\d)(\d\d)/, "$1 $2 $3 $4 $5"));
          await page.getByLabel(w.consent).check();
          await page.getByRole("button", { name: w.create }).click();
          await expect(page.getByText(w.created(newcomer.name))).toBeVisible();
          await expect(page.getByRole("heading", { name: newcomer.name })).toBeVisible();
          await fits(page, phone);
          await checkA11y(page);
        });

        await test.step("booked for them with their doctor, in the book dialog", async () => {
          await page.getByRole("link", { name: startingWith(w.bookWith(doctor.username)) }).click();
          const dialog = page.getByRole("dialog", { name: w.bookTitle(newcomer.name) });
          await expect(dialog).toBeVisible();
          const date = openDay(20);
          await dialog.locator('input[type="date"]').fill(date);
          const show = dialog.getByRole("button", { name: w.showTimes });
          if (await show.count()) await show.click();
          await page.waitForURL(new RegExp(`date=${date}`));
          await dialog.getByRole("radio", { name: w.inPerson }).check();
          await dialog.locator('input[name="time"]:not([disabled])').first().check();
          await fits(page, phone);
          await dialog.getByRole("button", { name: w.book }).click();
          await expect(page.getByText(w.booked(newcomer.name))).toBeVisible();
          await expect(page.getByRole("dialog")).toHaveCount(0);
        });

        await test.step("the text message reaches only the patient who consented", async () => {
          await expect.poll(async () => (await smsTo(e164)).length, { timeout: 15_000 }).toBeGreaterThan(0);
          // The walker's booking was made first: had it been sent, it would be there by now.
          expect(await smsTo(walker.phone)).toEqual([]);
        });

        await test.step("today's patient arrives", async () => {
          await page.goto("/reception");
          await expect(page.getByRole("heading", { level: 1, name: w.daySheet })).toBeVisible();
          const row = rowOf(page, today.username);
          await expect(row.getByText(w.expected, { exact: true })).toBeVisible();
          await fits(page, phone);
          await checkA11y(page);
          await row.getByRole("button", { name: startingWith(w.arrived) }).click();
          await expect(page.getByText(w.arrivalRecorded(today.username))).toBeVisible();
          await expect(rowOf(page, today.username).getByText(w.waiting, { exact: true })).toBeVisible();
        });

        await test.step("a walk-in, found by phone", async () => {
          await page.getByLabel(w.walkInPhone).fill(walker.phone);
          await page.getByLabel(w.walkInDoctor, { exact: true }).selectOption({ label: `Dr ${doctor.username}` });
          await page.getByRole("button", { name: w.walkIn }).click();
          await expect(page.getByText(w.walkInRecorded(walker.username))).toBeVisible();
          const row = rowOf(page, walker.username);
          await expect(row.getByText(w.walkInTag, { exact: true })).toBeVisible();
          await expect(row.getByText(w.waiting, { exact: true })).toBeVisible();
        });

        await test.step("the doctor's waiting room lists both in the order due, and calls the first in", async () => {
          // The booked patient is due at 10:00; the walk-in from their arrival, now.
          const order = clinicNow() < "10:00" ? [walker.username, today.username] : [today.username, walker.username];
          const context = await browser.newContext({
            javaScriptEnabled,
            locale: language === "fr" ? "fr-FR" : "en-US",
            ...(phone ? { viewport: { width: 320, height: 740 }, isMobile: true, hasTouch: true } : {}),
          });
          await context.addCookies([{ name: "i18nextLng", value: language, url: testInfo.project.use.baseURL! }]);
          const doctorPage = await context.newPage();
          await signIn(doctorPage, doctor.email, "doctor");
          await doctorPage.goto("/doctor/queue");
          const queue = doctorPage.getByRole("list", { name: w.queue });
          await expect(queue.getByRole("listitem")).toHaveCount(2);
          await expect(queue.getByRole("listitem").nth(0)).toContainText(order[0]!);
          await expect(queue.getByRole("listitem").nth(1)).toContainText(order[1]!);
          await fits(doctorPage, phone);
          await checkA11y(doctorPage);
          await queue
            .getByRole("listitem")
            .nth(0)
            .getByRole("button", { name: startingWith(w.callIn) })
            .click();
          await expect(doctorPage.getByText(w.called(order[0]!))).toBeVisible();
          await expect(queue.getByRole("listitem")).toHaveCount(1);
          await expect(queue.getByRole("listitem")).toContainText(order[1]!);
          await context.close();
          // The desk sees the patient called in with the doctor.
          await page.goto("/reception");
          await expect(rowOf(page, order[0]!).getByText(w.withDoctor, { exact: true })).toBeVisible();
        });
      });
    });
  }
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the admin's staff page (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("the admin invites a receptionist, who sets a password from the code; doctors served change; deactivated, they are out", async ({
      page,
      browser,
      admin,
      doctor,
      generalPractice,
    }) => {
      test.setTimeout(180_000);
      const other = await createDoctor(admin, [generalPractice]);
      const name = uniqueName("Desk");
      const email = uniqueEmail("invited");
      await signIn(page, admin.email, "admin");

      await test.step("the form says what is missing, then creates the receptionist", async () => {
        await page.goto("/admin/staff");
        await page.getByRole("button", { name: "Create the receptionist" }).click();
        await expect(page.getByText("Enter the receptionist's name")).toBeVisible();
        // The clinic (and this shared database) has more doctors than a page lists: found by name.
        await page.getByRole("searchbox", { name: "Find a doctor by name" }).fill(doctor.username);
        await page.getByRole("button", { name: "Search", exact: true }).click();
        await expect(page).toHaveURL(/[?&]doctor=/);
        await page.getByLabel("Full name").fill(name);
        await page.getByLabel("E-mail").fill(email);
        await page.getByRole("checkbox", { name: `Dr ${doctor.username}`, exact: true }).check();
        await page.getByRole("button", { name: "Create the receptionist" }).click();
        await expect(page.getByText(`${name} invited by e-mail.`)).toBeVisible();
        await checkA11y(page);
      });

      const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });
      await test.step("the receptionist chooses a password with the invitation's code and signs in", async () => {
        const code = await newCode(email);
        const context = await browser.newContext({ javaScriptEnabled });
        const desk = await context.newPage();
        await desk.goto(`/reset-password?email=${encodeURIComponent(email)}`);
        await enterCode(desk, code);
        await desk.getByLabel("New password").fill(PASSWORD);
        await desk.getByLabel("Confirm password").fill(PASSWORD);
        await desk.getByRole("button", { name: "Change password" }).click();
        await expect(desk).toHaveURL(/\/login/);
        await desk.getByRole("radio", { name: "Reception" }).check();
        await desk.getByLabel("Email").fill(email);
        await desk.getByLabel("Password", { exact: true }).fill(PASSWORD);
        await desk.getByRole("button", { name: "Log in", exact: true }).click();
        await expect(desk).toHaveURL(/\/reception$/);
        await expect(desk.getByRole("heading", { name: `Dr ${doctor.username}` })).toBeVisible();
        await context.close();
      });

      await test.step("the doctors served change in a dialog, the other doctor found by name", async () => {
        await page.goto("/admin/staff");
        await expect(card.getByText(`Doctors served: Dr ${doctor.username}`, { exact: true })).toBeVisible();
        await card.getByRole("link", { name: `Change doctors for ${name}` }).click();
        const dialog = page.getByRole("dialog", { name: `Doctors served by ${name}` });
        await expect(dialog).toBeVisible();
        await expect(page).toHaveURL(/[?&]edit=/);
        await dialog.getByRole("searchbox", { name: "Find a doctor by name" }).fill(other.username);
        await dialog.getByRole("button", { name: "Search", exact: true }).click();
        await expect(page).toHaveURL(/[?&]doctor=.*/);
        // The doctor already served stays listed and checked whatever the search.
        await expect(dialog.getByRole("checkbox", { name: `Dr ${doctor.username}`, exact: true })).toBeChecked();
        await checkA11y(page);
        await dialog.getByRole("checkbox", { name: `Dr ${other.username}`, exact: true }).check();
        await dialog.getByRole("button", { name: "Save the doctors" }).click();
        await expect(page.getByText(`Doctors of ${name} saved.`)).toBeVisible();
        await expect(page.getByRole("dialog")).toHaveCount(0);
        const served = card.getByText(/^Doctors served: /);
        await expect(served).toContainText(`Dr ${doctor.username}`);
        await expect(served).toContainText(`Dr ${other.username}`);
      });

      await test.step("deactivating asks first; Keep keeps them", async () => {
        await card.getByRole("link", { name: `Deactivate ${name}` }).click();
        const dialog = page.getByRole("dialog", { name: `Deactivate ${name}?` });
        await expect(dialog).toBeVisible();
        await checkA11y(page);
        await dialog.getByRole("link", { name: "Keep" }).click();
        await expect(page.getByRole("dialog")).toHaveCount(0);
        await expect(card.getByText("Active", { exact: true })).toBeVisible();
      });

      await test.step("deactivated, they can no longer sign in", async () => {
        await card.getByRole("link", { name: `Deactivate ${name}` }).click();
        await page.getByRole("dialog").getByRole("button", { name: "Deactivate" }).click();
        await expect(page.getByText(`${name} deactivated.`)).toBeVisible();
        await expect(card.getByText("Deactivated", { exact: true })).toBeVisible();
        const login = await api("POST", "/auth/login", { body: { email, password: PASSWORD, role: "receptionist" } });
        expect(login.status).not.toBe(200);
      });
    });
  });
}

test.describe("where the desk may go", () => {
  test("a receptionist sent to a patient's, a doctor's or the admin's page lands on the day sheet", async ({
    page,
    admin,
    doctor,
  }) => {
    const desk = await createReceptionist(admin, [doctor]);
    await signIn(page, desk.email, "receptionist");
    for (const path of [
      "/health/doctors",
      "/patient/profile",
      "/doctor/appointments",
      "/doctor/queue",
      "/admin",
      "/admin/staff",
      "/notifications",
    ]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/reception$/);
    }
    const menu = await mainMenu(page);
    await expect(menu.getByRole("link", { name: "Day sheet" })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Patients" })).toBeVisible();
  });
});

test.describe("lists that follow the day (JavaScript on)", () => {
  test.use({ javaScriptEnabled: true });

  test("the day sheet and the waiting room show what happened elsewhere within 30 s, without a reload", async ({
    page,
    browser,
    admin,
    doctor,
  }) => {
    const desk = await createReceptionist(admin, [doctor]);
    const patient = await createPatient();
    const id = await todayAppointment(doctor, patient);
    await page.clock.install();
    await signIn(page, desk.email, "receptionist");
    const row = rowOf(page, patient.username);
    await expect(row.getByText("Booked", { exact: true })).toBeVisible();
    // Marks the page: a reload would lose it.
    await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));

    const context = await browser.newContext({ javaScriptEnabled: true });
    const doctorPage = await context.newPage();
    await doctorPage.clock.install();
    await signIn(doctorPage, doctor.email, "doctor");
    await doctorPage.goto("/doctor/queue");
    await expect(doctorPage.getByText("Nobody is waiting.")).toBeVisible();

    // Another desk computer records the arrival.
    const arrived = await api("POST", `/reception/appointments/${id}/arrival`, { token: desk.token });
    expect(arrived.status, JSON.stringify(arrived.body)).toBe(200);
    await page.clock.runFor(31_000);
    await expect(row.getByText("In the waiting room", { exact: true })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept)).toBe(true);

    await doctorPage.clock.runFor(31_000);
    await expect(
      doctorPage.getByRole("list", { name: "Waiting room" }).getByText(patient.username, { exact: true }),
    ).toBeVisible();
    await context.close();
  });
});

for (const javaScriptEnabled of [false, true]) {
  test.describe(`the day sheet's changes (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("the desk marks yesterday's absent patient, moves a booking, then cancels it after asking", async ({
      page,
      admin,
      doctor,
      patient,
    }) => {
      test.setTimeout(180_000);
      const desk = await createReceptionist(admin, [doctor]);
      const [missed] = await pastAppointments(doctor, patient, 1);
      const date = openDay(30);
      const booked = await api("POST", "/reception/appointments", {
        token: desk.token,
        body: { patientId: patient.id, doctorId: doctor.id, type: "in-person", date, time: "09:00" },
      });
      expect(booked.status, JSON.stringify(booked.body)).toBe(201);
      await signIn(page, desk.email, "receptionist");

      await test.step("yesterday's patient who did not come: 'No-show'", async () => {
        const sheet = await api("GET", `/reception/day`, { token: desk.token });
        const yesterday = new Date(Date.parse(`${sheet.body.date}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
        await page.goto(`/reception?date=${yesterday}`);
        const row = rowOf(page, patient.username);
        await row.getByRole("button", { name: startingWith("No-show") }).click();
        await expect(page.getByText(`${patient.username} marked as a no-show.`)).toBeVisible();
        await expect(rowOf(page, patient.username).getByText("No-show", { exact: true })).toBeVisible();
        expect((await api("GET", `/reception/day?date=${yesterday}`, { token: desk.token })).body.appointments).toEqual(
          [expect.objectContaining({ id: missed, state: "noshow" })],
        );
      });

      await test.step("the booking moves to 14:00 in the reschedule dialog", async () => {
        await page.goto(`/reception?date=${date}`);
        await rowOf(page, patient.username)
          .getByRole("link", { name: startingWith("Reschedule") })
          .click();
        const dialog = page.getByRole("dialog", { name: "Reschedule" });
        await dialog.getByLabel("New time").selectOption("14:00");
        await dialog.getByRole("button", { name: "Move the appointment" }).click();
        await expect(page.getByText(`Appointment of ${patient.username} moved.`)).toBeVisible();
        await expect(rowOf(page, patient.username)).toContainText("14:00");
      });

      await test.step("cancelling asks first, then cancels", async () => {
        await rowOf(page, patient.username)
          .getByRole("link", { name: startingWith("Cancel") })
          .click();
        const dialog = page.getByRole("dialog", { name: "Cancel this appointment?" });
        await expect(dialog.getByText(`${patient.username} with Dr ${doctor.username}`)).toBeVisible();
        await dialog.getByRole("button", { name: "Cancel the appointment" }).click();
        await expect(page.getByText(`Appointment of ${patient.username} cancelled.`)).toBeVisible();
        await expect(rowOf(page, patient.username).getByText("Cancelled", { exact: true })).toBeVisible();
      });
    });
  });
}

// A locked claim (docs/product.md, The front desk): a patient signing up with the number of a desk
// record gave 5 wrong dates of birth; the desk sees it on the record and, having checked the
// person's identity card, unlocks it; the right date then claims the record.
for (const language of ["en", "fr"] as Language[]) {
  for (const javaScriptEnabled of [false, true]) {
    test.describe(`a locked sign-up (${language}, JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
      test.use({ language, javaScriptEnabled });
      const w = WORDS[language];

      test("the desk sees a sign-up locked after 5 wrong dates of birth and unlocks it", async ({
        page,
        admin,
        doctor,
      }, testInfo) => {
        const phone = testInfo.project.name === "phone";
        if (phone) await page.setViewportSize({ width: 320, height: 740 });
        const desk = await createReceptionist(admin, [doctor]);
        const record = await deskRecord(desk, uniqueName("Marie Atangana"), "1979-03-21");
        const signUp = await api("POST", "/auth/register", {
          body: { userRole: "patient", username: record.username, phone: record.phone, password: PASSWORD },
        });
        expect(signUp.status, JSON.stringify(signUp.body)).toBe(201);
        const code = await latestSmsCode(record.phone);
        const verify = (dateOfBirth: string) =>
          api("PUT", `/auth/verifyUser/${signUp.body.id}`, { body: { otpCode: code, dateOfBirth } });
        for (let i = 1; i <= 5; i++) await verify(`1979-03-0${i}`);
        expect((await verify("1979-03-21")).body.code).toBe("claim_locked");

        await signIn(page, desk.email, "receptionist");
        await page.goto("/reception/patients");
        await page.getByRole("searchbox", { name: w.search }).fill(record.phone);
        await page.getByRole("button", { name: w.searchSubmit, exact: true }).click();
        const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: record.username }) });
        await expect(card.getByText(w.claimLocked, { exact: true })).toBeVisible();
        await fits(page, phone);
        await checkA11y(page);

        await card.getByRole("button", { name: startingWith(w.claimUnlock) }).click();
        await expect(page.getByText(w.claimUnlocked(record.username))).toBeVisible();
        await expect(card.getByText(w.claimLocked, { exact: true })).toHaveCount(0);
        await expect(card.getByRole("button", { name: startingWith(w.claimUnlock) })).toHaveCount(0);

        // The right date of birth now claims the record.
        const claimed = await verify("1979-03-21");
        expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
        expect(claimed.body.id).toBe(record.id);
      });
    });
  }
}
