// What the layout and accessibility specs share: the pages of every role (with the data that makes
// them show cards, dialogs and long names), signed-in browser states, and the in-page checks for
// sideways overflow and reachable top-bar items.
import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import {
  api,
  book,
  enterCode,
  futureSlot,
  generalPractice,
  newCode,
  openDay,
  openRequest,
  passProfileGate,
  PASSWORD,
  signInContext,
  uniqueName,
} from "./doctor-helpers.ts";
import { clientAddress, expect, uniqueEmail } from "./support.ts";
import {
  createDoctor,
  createPatient,
  createReceptionist,
  randomMobile,
  registerDoctor,
  todayAppointment,
  workerAdmin,
} from "./fixtures.ts";

export type Role = "anonymous" | "patient" | "doctor" | "pending" | "admin" | "receptionist";
export type Language = "en" | "fr";

/** A page to visit: its address, what it shows (for the failure message) and how to bring it about. */
interface Visit {
  /** Where to go; none: the visit acts on the page the previous one left (one load fewer). */
  path?: string;
  what: string;
  /** What the user does on the page once loaded (submit a form), the same with and without JavaScript. */
  act?: (page: Page) => Promise<void>;
  /** A CSS selector that must be visible before the checks (the dialog open, the field errors, the toast). */
  shows?: string;
}

export interface World {
  pages: Record<Role, Visit[]>;
  /** Browser storage states (cookies) of a signed-in user of each role. */
  states: Record<
    Exclude<Role, "anonymous">,
    Awaited<ReturnType<import("@playwright/test").BrowserContext["storageState"]>>
  >;
  /** The approved doctor, whose walk opens the profile gate first (a code is mailed for each session). */
  doctor: { email: string };
}

export const DIALOG = '[role="dialog"]';
const FIELD_ERROR = ".field-error";
/** The flash toast (app/components/toaster.tsx): a success says `status`, an error `alert`. */
const TOAST = { success: '[aria-live="polite"] > [role="status"]', error: '[aria-live="polite"] > [role="alert"]' };

/** Presses the page's own submit button (the first in <main>, or in the dialog when one is open). */
const submitIn =
  (scope: string, nth: "first" | "last" = "first") =>
  async (page: Page) => {
    await page.locator(scope).locator('button[type="submit"]').filter({ visible: true })[nth]().click();
  };
/** The form left empty and sent: the page comes back with its field errors. */
const submitEmpty = submitIn("main");
/**
 * A wrong code typed into the six boxes and sent (a code form cannot be sent empty). One wrong try
 * per walk, fewer than the five a code allows.
 */
async function wrongCode(page: Page) {
  await enterCode(page, "000000");
  await page.locator('button[name="intent"][value="verify"]').click();
}

/** The appointments an absence or a closed day would cancel (app/components/conflict-list.tsx). */
const CONFLICTS = '[aria-labelledby="conflicts-title"]';

/** The upcoming appointments the doctor's plan no longer offers (the Availability page). */
const OUTSIDE_PLAN = '[aria-labelledby="outside-plan-title"]';

/** An absence of the one day `date` declared on the Availability page (nothing is saved: it meets a booking). */
const absenceOver = (date: string) => async (page: Page) => {
  await page.locator('input[name="from"]').fill(date);
  await page.locator('input[name="to"]').fill(date);
  await page.locator('button[name="intent"][value="absence"]').click();
};

/** A profile form saved with its name emptied. */
async function saveWithoutName(page: Page) {
  await page.locator('input[name="username"]').fill("");
  // The form has two Save buttons, one for each screen size: the one shown.
  await page.locator('button[name="intent"][value="save"]').filter({ visible: true }).first().click();
}

/** A patient whose name is as long as a real one can be, with no space to break it. */
const longNamedPatient = () => createPatient({ username: `Mbarga-Nkoulou-Essomba-Ndzana ${randomUUID().slice(0, 6)}` });

async function stateOf(
  browser: Browser,
  who: { email: string; role: "patient" | "doctor" | "admin" | "receptionist" },
) {
  // Explicit options: inside a test, newContext() inherits the test's `use` (French, phone...).
  const context = await browser.newContext({ javaScriptEnabled: false, locale: "en-US" });
  await signInContext(context, who);
  const state = await context.storageState();
  await context.close();
  return state;
}

/**
 * Every page of every role, with the data each needs: a patient with a booking (details, cancel and
 * payment pages) and an open request, a doctor with a booking by a long-named patient, a doctor
 * awaiting approval, a registration awaiting its code and a password reset with a code mailed.
 */
let built: Promise<World> | undefined;
export function buildWorld(browser: Browser): Promise<World> {
  // Once per worker: every describe block of a spec shares the same users and pages.
  built ??= makeWorld(browser);
  return built;
}

async function makeWorld(browser: Browser): Promise<World> {
  const gp = await generalPractice();
  const admin = await workerAdmin();
  const doctor = await createDoctor(admin, [gp]);
  const patient = await createPatient();
  const booked = await book(patient, doctor.id, gp);
  const long = await longNamedPatient();
  const longBooking = await book(long, doctor.id, gp);
  // The request's time is proposed by this doctor below: not one the patient or the doctor holds.
  const held = (s: { date: string; time: string }, taken: { date: string; time: string }[]) =>
    taken.some((b) => b.date === s.date && b.time === s.time);
  let slot = futureSlot();
  while (held(slot, [booked, longBooking])) slot = futureSlot();
  const request = await openRequest(patient, gp, slot);
  // A proposal, so the patient's open request shows one; a record, so the doctor's list has one.
  const proposed = await api("POST", "/appointment-proposal", {
    token: doctor.token,
    body: { doctorId: doctor.id, appointmentId: request.id },
  });
  expect(proposed.status, JSON.stringify(proposed.body)).toBeLessThan(300);
  const record = await api("POST", "/consultation", {
    token: doctor.token,
    body: {
      patientId: long.id,
      type: "follow-up",
      diagnosis: "Malaria",
      notes: "Fever for three days.",
      prescription: ["Rest"],
    },
  });
  expect(record.status, JSON.stringify(record.body)).toBeLessThan(300);
  // Confirmed, so the patient's payment page shows an amount due.
  await api("PUT", `/appointment/${booked.id}`, { token: doctor.token, body: { status: "confirmed" } });
  // A doctor who verified the mail and waits for the admin's decision.
  const pending = await registerDoctor();
  const verified = await api("PUT", `/auth/verifyUser/${pending.id}`, {
    body: { otpCode: await newCode(pending.email) },
  });
  expect(verified.status, JSON.stringify(verified.body)).toBe(200);
  // A registration whose code is in the mail, and a password reset whose code is in the mail.
  const unverified = await registerPatient();
  const unverifiedByPhone = await registerPatient({ byPhone: true });
  const reset = await api("POST", "/auth/forgot-password", { body: { email: long.email } });
  expect(reset.status, JSON.stringify(reset.body)).toBe(200);
  // The front desk: a receptionist serving the doctor, today's appointment of the long-named
  // patient on the day sheet (waiting in the doctor's queue once arrived), a desk booking to cancel.
  const desk = await createReceptionist(admin, [doctor]);
  const today = await todayAppointment(doctor, long);
  const arrived = await api("POST", `/reception/appointments/${today}/arrival`, { token: desk.token });
  expect(arrived.status, JSON.stringify(arrived.body)).toBe(200);
  // Not a time the doctor holds already (the bookings above, the proposed time).
  let deskSlot = futureSlot(30);
  while (held(deskSlot, [booked, longBooking, slot])) deskSlot = futureSlot(30);
  const deskBooking = await api("POST", "/reception/appointments", {
    token: desk.token,
    body: { patientId: patient.id, doctorId: doctor.id, type: "in-person", ...deskSlot },
  });
  expect(deskBooking.status, JSON.stringify(deskBooking.body)).toBe(201);
  const resetPage = `/reset-password?${new URLSearchParams({ email: long.email })}`;
  // Last, once everything is booked on the six hourly slots: the doctor's plan becomes 15-minute
  // visits early and late on weekdays (28 starts a day, in the morning, the afternoon and the
  // evening), so the time pickers show a long day and every booking above falls outside the plan.
  const starts = (from: number, to: number) =>
    Array.from({ length: (to - from) / 15 }, (_, i) => from + i * 15).map(
      (m) => `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`,
    );
  const longDay = [...starts(6 * 60, 9 * 60), ...starts(17 * 60, 21 * 60)];
  const plan = await api("PUT", "/doctor/working-plan", {
    token: doctor.token,
    body: {
      week: Object.fromEntries(["monday", "tuesday", "wednesday", "thursday", "friday"].map((day) => [day, longDay])),
      visitMinutes: 15,
      minimumNoticeHours: 2,
      bookingHorizonDays: 90,
    },
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(200);
  // A day of that plan whose first time is taken: the book dialog shows it struck out.
  const busyDay = openDay();
  const taken = await api("POST", "/appointment", {
    token: (await createPatient()).token,
    body: {
      doctorId: doctor.id,
      specialityId: gp,
      type: "online",
      status: "pending",
      category: "direct",
      date: busyDay,
      time: "06:00",
    },
  });
  expect(taken.status, JSON.stringify(taken.body)).toBe(201);

  const doctorPages = (approved: boolean): Visit[] => [
    { path: "/doctor/dashboard", what: "dashboard" },
    { path: "/doctor/appointments", what: "appointments" },
    ...(approved
      ? [
          {
            path: `/doctor/appointments?appointment=${longBooking.id}`,
            what: "appointment details dialog",
            shows: DIALOG,
          },
          {
            path: `/doctor/appointments?appointment=${longBooking.id}&edit=1`,
            what: "reschedule dialog",
            shows: DIALOG,
          },
          { path: `/doctor/appointments?cancel=${longBooking.id}`, what: "cancel dialog", shows: DIALOG },
        ]
      : []),
    { path: "/doctor/appointments?tab=open", what: "open requests" },
    ...(approved
      ? [
          {
            path: `/doctor/appointments?tab=open&appointment=${request.id}`,
            what: "open request dialog",
            shows: DIALOG,
          },
        ]
      : []),
    { path: "/doctor/consultations", what: "consultations" },
    { path: "/doctor/consultations?new=1", what: "new consultation dialog", shows: DIALOG },
    ...(approved
      ? [
          { path: `/doctor/consultations?edit=${record.body.id}`, what: "edit consultation dialog", shows: DIALOG },
          { path: `/doctor/consultations/${record.body.id}/print`, what: "printable consultation" },
          // The doctor's walk opens the gate first (pageAs): the profile itself, its form and dialog.
          { path: "/doctor/profile", what: "profile" },
          { path: "/doctor/profile?edit=1", what: "profile form" },
          { what: "profile form with field errors", act: saveWithoutName, shows: FIELD_ERROR },
          { path: "/doctor/profile?delete=1", what: "delete-account dialog", shows: DIALOG },
        ]
      : [
          { path: "/doctor/profile", what: "profile code gate", shows: DIALOG },
          { what: "profile code gate with a wrong code", act: wrongCode, shows: `${DIALOG} [role="alert"]` },
        ]),
    { path: "/doctor/queue", what: "waiting room" },
    // The bookings the plan no longer offers, listed to be moved.
    { path: "/doctor/availability", what: "availability", shows: approved ? OUTSIDE_PLAN : undefined },
    // A period ending before it starts, saved: the error beside its field.
    {
      what: "availability with a period's field error",
      act: async (page) => {
        await page.locator('input[name="days.monday[0].from"]').fill("12:00");
        await page.locator('input[name="days.monday[0].to"]').fill("08:00");
        await page.locator('button[name="intent"][value="plan"]').click();
      },
      shows: FIELD_ERROR,
    },
    // Declare absence pressed with no dates.
    {
      what: "availability with field errors",
      act: (page) => page.locator('button[name="intent"][value="absence"]').click(),
      shows: FIELD_ERROR,
    },
    // An absence over the long-named patient's booking: the list of what it would cancel.
    ...(approved
      ? [{ what: "availability with an absence's conflict list", act: absenceOver(longBooking.date), shows: CONFLICTS }]
      : []),
    { path: "/notifications", what: "notifications" },
    { path: "/doctor/schedule/print", what: "printable schedule" },
    { path: "/settings", what: "settings" },
  ];

  const pages: Record<Role, Visit[]> = {
    anonymous: [
      { path: "/login", what: "login" },
      { what: "login with field errors", act: submitEmpty, shows: FIELD_ERROR },
      { path: "/register", what: "register (patient)" },
      { what: "register with field errors", act: submitEmpty, shows: FIELD_ERROR },
      { path: "/register?role=doctor", what: "register (doctor)" },
      {
        path: "/verification",
        what: "register with the error toast (a verification without a user)",
        shows: TOAST.error,
      },
      { path: unverified.verification, what: "verification with a code pending" },
      { what: "verification with a wrong code", act: wrongCode, shows: 'main [role="alert"]' },
      { path: unverifiedByPhone.verification, what: "verification with a code sent by SMS (number partly hidden)" },
      { path: "/forgot-password", what: "forgot password" },
      { path: "/reset-password", what: "reset password" },
      { path: resetPage, what: "reset password with a code pending" },
      { what: "reset password with field errors", act: submitEmpty, shows: FIELD_ERROR },
      { path: "/terms", what: "terms" },
      { path: "/privacy", what: "privacy" },
      { path: "/no-such-page", what: "not found" },
    ],
    patient: [
      { path: "/health/doctors", what: "find a doctor" },
      { path: `/health/doctors?book=${doctor.id}`, what: "book dialog", shows: DIALOG },
      // Book pressed with no time chosen.
      { what: "book dialog with field errors", act: submitIn(DIALOG, "last"), shows: `${DIALOG} ${FIELD_ERROR}` },
      {
        path: `/health/doctors?book=${doctor.id}&date=${busyDay}`,
        what: "book dialog with a taken time",
        shows: DIALOG,
      },
      { path: "/health/doctors?request=1", what: "open-request dialog", shows: DIALOG },
      { path: "/health/doctors/my-appointments", what: "my appointments" },
      { path: "/health/doctors/my-appointments?tab=open", what: "my open requests" },
      {
        path: `/health/doctors/my-appointments?appointment=${booked.id}`,
        what: "appointment details dialog",
        shows: DIALOG,
      },
      { path: `/health/doctors/my-appointments?cancel=${booked.id}`, what: "cancel dialog", shows: DIALOG },
      { path: `/health/payment/${booked.id}`, what: "payment" },
      { path: "/health/paramedical", what: "paramedical" },
      { path: "/health/pharmacy", what: "pharmacy" },
      { path: "/patient/profile", what: "patient profile" },
      { path: "/patient/profile?delete=1", what: "delete-account dialog", shows: DIALOG },
      { path: "/patient/profile?edit=1", what: "patient profile form" },
      { what: "patient profile form with field errors", act: saveWithoutName, shows: FIELD_ERROR },
      { path: "/patient/profile/access", what: "who saw my data" },
      {
        path: `/health/doctors/my-appointments?tab=open&appointment=${request.id}`,
        what: "open request's proposals dialog",
        shows: DIALOG,
      },
      {
        path: `/health/doctors/my-appointments?tab=open&appointment=${request.id}&view=details`,
        what: "open request's details dialog",
        shows: DIALOG,
      },
      { path: "/notifications", what: "notifications" },
      { path: "/settings", what: "settings" },
      // The mail settings saved as they are: nothing changes but the success toast shows.
      {
        what: "settings with the success toast",
        act: (page) => page.locator('button[name="intent"][value="mail"]').click(),
        shows: TOAST.success,
      },
      // The text messages card after 'send me a code': the six boxes, or (a second run within
      // CODE_RESEND_SECONDS) the card's 'please wait' alert (docs/sms.md).
      {
        what: "settings with the SMS code form",
        act: (page) => page.locator('button[name="intent"][value="phoneCode"]').click(),
        shows: '#sms-title ~ * input[name="code0"], #sms-title ~ [role="alert"]',
      },
    ],
    doctor: doctorPages(true),
    pending: doctorPages(false),
    receptionist: [
      { path: "/reception", what: "day sheet" },
      // A walk-in whose number no patient has: the form says so, with a link to make the record.
      {
        what: "day sheet with a walk-in refused",
        act: async (page) => {
          await page.locator('input[name="phone"]').fill("699999999");
          await page.locator('select[name="doctorId"]').selectOption(doctor.id);
          await page.locator('button[name="intent"][value="walkIn"]').click();
        },
        shows: 'main [role="alert"]',
      },
      { path: `/reception?date=${deskSlot.date}`, what: "another day" },
      { path: `/reception?date=${deskSlot.date}&cancel=${deskBooking.body.id}`, what: "cancel dialog", shows: DIALOG },
      {
        path: `/reception?date=${deskSlot.date}&reschedule=${deskBooking.body.id}`,
        what: "reschedule dialog",
        shows: DIALOG,
      },
      { path: "/reception/patients", what: "patients" },
      // Create pressed with nothing typed.
      {
        what: "new patient with field errors",
        act: (page) => page.locator("form#patient button[type=submit]").click(),
        shows: FIELD_ERROR,
      },
      { path: `/reception/patients?search=${encodeURIComponent(long.username)}`, what: "patients found by name" },
      {
        path: `/reception/patients?patient=${long.id}&book=${doctor.id}`,
        what: "book dialog for a patient",
        shows: DIALOG,
      },
      { path: "/settings", what: "settings" },
    ],
    admin: [
      { path: "/admin", what: "admin" },
      { path: "/admin/closures", what: "closed days" },
      // Add closed day pressed with no date and no reason.
      {
        what: "closed days with field errors",
        act: (page) => page.locator('button[name="intent"][value="closure"]').click(),
        shows: FIELD_ERROR,
      },
      { path: "/admin/staff", what: "front desk staff" },
      // Create pressed with nothing typed.
      {
        what: "front desk staff with field errors",
        act: (page) => page.locator('button[name="intent"][value="create"]').click(),
        shows: FIELD_ERROR,
      },
      {
        path: `/admin/staff?doctor=${encodeURIComponent(doctor.username)}`,
        what: "front desk staff, doctors found by name",
      },
      { path: `/admin/staff?edit=${desk.id}`, what: "change doctors dialog", shows: DIALOG },
      {
        path: `/admin/staff?edit=${desk.id}&doctor=${encodeURIComponent(long.username)}`,
        what: "change doctors dialog, no doctor found",
        shows: DIALOG,
      },
      { path: `/admin/staff?deactivate=${desk.id}`, what: "deactivate dialog", shows: DIALOG },
      { path: "/settings", what: "settings" },
    ],
  };
  return {
    pages,
    doctor,
    states: {
      patient: await stateOf(browser, patient),
      doctor: await stateOf(browser, doctor),
      pending: await stateOf(browser, { ...pending, role: "doctor" }),
      admin: await stateOf(browser, admin),
      receptionist: await stateOf(browser, desk),
    },
  };
}

/**
 * A patient registration whose code is not used yet: mailed, or sent by SMS to a patient who gave
 * a phone and no e-mail (`byPhone`).
 */
async function registerPatient({ byPhone = false } = {}) {
  const email = byPhone ? undefined : uniqueEmail("unverified");
  const phone = `+237${randomMobile()}`;
  const registered = await api("POST", "/auth/register", {
    body: { username: uniqueName("Unverified"), email, phone, password: PASSWORD, userRole: "patient" },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
  const id = registered.body.id as string;
  return {
    id,
    verification: `/verification?${new URLSearchParams(email ? { userId: id, email } : { userId: id, phone })}`,
  };
}

/** The language cookie the app reads first (app/i18n.server.ts). */
function languageCookie(baseURL: string, language: Language) {
  return { name: "i18nextLng", value: language, url: baseURL };
}

/**
 * A page of a new browser context as a user of `role` sees it (signed in unless anonymous), in
 * `language`, with JavaScript on or off; a phone (touch, `phoneWidth` px wide) when asked. Close
 * its context when done.
 */
export async function pageAs(
  browser: Browser,
  baseURL: string,
  world: World,
  {
    role,
    language,
    javaScriptEnabled,
    phoneWidth,
  }: { role: Role; language: Language; javaScriptEnabled: boolean; phoneWidth?: number },
) {
  const context = await browser.newContext({
    javaScriptEnabled,
    locale: language === "fr" ? "fr-FR" : "en-US",
    ...(phoneWidth ? { viewport: { width: phoneWidth, height: 740 }, isMobile: true, hasTouch: true } : {}),
    storageState: role === "anonymous" ? undefined : world.states[role],
    // A client of its own (as the test fixture gives each test), so the walks' code tries and
    // forms meet no other test's per-address limits.
    extraHTTPHeaders: { "x-forwarded-for": clientAddress() },
  });
  await context.addCookies([languageCookie(baseURL, language)]);
  if (role === "doctor") await passProfileGate(context, world.doctor.email, baseURL);
  return context.newPage();
}

/**
 * What sticks out sideways at the current viewport `width`: the document's own scroll width, every
 * visible element whose right edge passes the viewport (unless an ancestor clips it inside the
 * viewport), and every element whose content spills out of its own box (labels wider than their
 * cell). Empty when the page fits.
 */
export async function overflowAt(page: Page, width: number): Promise<string[]> {
  return page.evaluate((width) => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > width) problems.push(`the page is ${root.scrollWidth} px wide`);
    const describeElement = (el: Element) => {
      const text = (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      const cls = typeof el.className === "string" ? el.className.split(/\s+/).slice(0, 4).join(".") : "";
      return `<${el.tagName.toLowerCase()}${cls ? ` .${cls}` : ""}> "${text}"`;
    };
    const hidden = (el: Element) => {
      const style = getComputedStyle(el);
      return (
        style.visibility === "hidden" || style.display === "none" || style.clip !== "auto" || style.clipPath !== "none"
      );
    };
    const clippedInside = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX !== "visible" && a.getBoundingClientRect().right <= width + 1) return true;
      }
      return false;
    };
    for (const el of document.body.querySelectorAll("*")) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || hidden(el)) continue;
      if (rect.right > width + 1 && !clippedInside(el)) {
        // Only the outermost offender: its children follow it out.
        const parent = el.parentElement;
        if (parent && parent !== document.body && parent.getBoundingClientRect().right > width + 1 && !hidden(parent))
          continue;
        problems.push(`${describeElement(el)} reaches ${Math.round(rect.right)} px`);
        continue;
      }
      const style = getComputedStyle(el);
      if (
        style.overflowX === "visible" &&
        style.display !== "inline" &&
        el.scrollWidth > el.clientWidth + 1 &&
        el.clientWidth > 0 &&
        el.tagName !== "svg"
      ) {
        problems.push(
          `${describeElement(el)} spills ${el.scrollWidth - el.clientWidth} px out of its ${el.clientWidth} px box`,
        );
      }
    }
    return problems;
  }, width);
}

/**
 * Controls smaller than `min` px either way (WCAG 2.5.8 target size): every link, button, field,
 * menu summary and scripted control that shows. A link inside running text is exempt, as the
 * criterion's inline exception says (its height is the line's): an inline link whose nearest block
 * holds other words. An inline link alone in its block is a control like any other.
 */
export async function smallTargets(page: Page, min = 24): Promise<string[]> {
  return page.evaluate((min) => {
    const small: string[] = [];
    const controls =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"], [tabindex]:not([tabindex="-1"])';
    const inSentence = (el: HTMLElement) => {
      let block = el.parentElement;
      while (block && getComputedStyle(block).display.startsWith("inline")) block = block.parentElement;
      const words = (block?.textContent ?? "").replace(el.textContent ?? "", "");
      return /\p{L}/u.test(words);
    };
    for (const el of document.querySelectorAll<HTMLElement>(controls)) {
      const rect = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // Visually hidden (the skip link until focused, inputs drawn by their label) is not a target.
      if (
        !rect.width ||
        !rect.height ||
        style.visibility === "hidden" ||
        style.clip !== "auto" ||
        style.clipPath !== "none"
      )
        continue;
      if (el.tagName === "A" && style.display === "inline" && inSentence(el)) continue;
      if (rect.width < min - 0.5 || rect.height < min - 0.5) {
        const name = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 30) ?? "";
        small.push(
          `<${el.tagName.toLowerCase()}${el.getAttribute("type") ? ` type=${el.getAttribute("type")}` : ""}> "${name}" is ${Math.round(rect.width)}x${Math.round(rect.height)} px`,
        );
      }
    }
    return small;
  }, min);
}

/** Whether the locator's element is visible and entirely inside the viewport. */
export async function onScreen(page: Page, any: import("@playwright/test").Locator) {
  // A control may be in the page twice (top bar and phone menu), one of them hidden.
  const locator = any.filter({ visible: true }).first();
  if (!(await locator.isVisible())) return false;
  const box = await locator.boundingBox();
  const size = page.viewportSize()!;
  return (
    !!box && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width + 1 && box.y + box.height <= size.height + 1
  );
}
