// What the layout and accessibility specs share: the pages of every role (with the data that makes
// them show cards, dialogs and long names), signed-in browser states, and the in-page checks for
// sideways overflow and reachable top-bar items.
import { randomUUID } from "node:crypto";
import type { Browser, Page } from "@playwright/test";
import { api, book, generalPractice, openRequest, signInContext } from "./doctor-helpers.ts";
import { createDoctor, createPatient, workerAdmin } from "./fixtures.ts";

export type Role = "anonymous" | "patient" | "doctor" | "admin";
export type Language = "en" | "fr";

/** A page to visit: its address and what it shows (for the failure message). */
interface Visit {
  path: string;
  what: string;
  /** The name of the dialog this address opens, if any (the a11y spec checks it is open). */
  dialog?: boolean;
}

export interface World {
  pages: Record<Role, Visit[]>;
  /** Browser storage states (cookies) of a signed-in user of each role. */
  states: Record<Exclude<Role, "anonymous">, Awaited<ReturnType<import("@playwright/test").BrowserContext["storageState"]>>>;
}

/** A patient whose name is as long as a real one can be, with no space to break it. */
const longNamedPatient = () => createPatient({ username: `Mbarga-Nkoulou-Essomba-Ndzana ${randomUUID().slice(0, 6)}` });

async function stateOf(browser: Browser, who: { email: string; role: "patient" | "doctor" | "admin" }) {
  // Explicit options: inside a test, newContext() inherits the test's `use` (French, phone...).
  const context = await browser.newContext({ javaScriptEnabled: false, locale: "en-US" });
  await signInContext(context, who);
  const state = await context.storageState();
  await context.close();
  return state;
}

/**
 * Every page of every role, with the data each needs: a patient with a booking (details, cancel and
 * payment pages) and an open request, and a doctor with a booking by a long-named patient.
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
  await openRequest(patient, gp);
  const long = await longNamedPatient();
  const longBooking = await book(long, doctor.id, gp);
  // Confirmed, so the patient's payment page shows an amount due.
  await api("PUT", `/appointment/${booked.id}`, { token: doctor.token, body: { status: "confirmed" } });

  const pages: Record<Role, Visit[]> = {
    anonymous: [
      { path: "/login", what: "login" },
      { path: "/register", what: "register (patient)" },
      { path: "/register?role=doctor", what: "register (doctor)" },
      { path: "/verification", what: "verification" },
      { path: "/forgot-password", what: "forgot password" },
      { path: "/reset-password", what: "reset password" },
      { path: "/terms", what: "terms" },
      { path: "/privacy", what: "privacy" },
      { path: "/no-such-page", what: "not found" },
    ],
    patient: [
      { path: "/health/doctors", what: "find a doctor" },
      { path: `/health/doctors?book=${doctor.id}`, what: "book dialog", dialog: true },
      { path: "/health/doctors?request=1", what: "open-request dialog", dialog: true },
      { path: "/health/doctors/my-appointments", what: "my appointments" },
      { path: "/health/doctors/my-appointments?tab=open", what: "my open requests" },
      { path: `/health/doctors/my-appointments?appointment=${booked.id}`, what: "appointment details dialog", dialog: true },
      { path: `/health/doctors/my-appointments?cancel=${booked.id}`, what: "cancel dialog", dialog: true },
      { path: `/health/payment/${booked.id}`, what: "payment" },
      { path: "/health/paramedical", what: "paramedical" },
      { path: "/health/pharmacy", what: "pharmacy" },
      { path: "/patient/profile", what: "patient profile" },
      { path: "/patient/profile?delete=1", what: "delete-account dialog", dialog: true },
      { path: "/settings", what: "settings" },
    ],
    doctor: [
      { path: "/doctor/dashboard", what: "dashboard" },
      { path: "/doctor/appointments", what: "appointments" },
      { path: `/doctor/appointments?appointment=${longBooking.id}`, what: "appointment details dialog", dialog: true },
      { path: `/doctor/appointments?appointment=${longBooking.id}&edit=1`, what: "reschedule dialog", dialog: true },
      { path: "/doctor/appointments?tab=open", what: "open requests" },
      { path: "/doctor/consultations", what: "consultations" },
      { path: "/doctor/consultations?new=1", what: "new consultation dialog", dialog: true },
      { path: "/doctor/profile", what: "profile code gate", dialog: true },
      { path: "/doctor/schedule/print", what: "printable schedule" },
      { path: "/settings", what: "settings" },
    ],
    admin: [
      { path: "/admin", what: "admin" },
      { path: "/settings", what: "settings" },
    ],
  };
  return {
    pages,
    states: {
      patient: await stateOf(browser, patient),
      doctor: await stateOf(browser, doctor),
      admin: await stateOf(browser, admin),
    },
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
  { role, language, javaScriptEnabled, phoneWidth }: { role: Role; language: Language; javaScriptEnabled: boolean; phoneWidth?: number },
) {
  const context = await browser.newContext({
    javaScriptEnabled,
    locale: language === "fr" ? "fr-FR" : "en-US",
    ...(phoneWidth ? { viewport: { width: phoneWidth, height: 740 }, isMobile: true, hasTouch: true } : {}),
    storageState: role === "anonymous" ? undefined : world.states[role],
  });
  await context.addCookies([languageCookie(baseURL, language)]);
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
      return style.visibility === "hidden" || style.display === "none" || style.clip !== "auto" || style.clipPath !== "none";
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
        if (parent && parent !== document.body && parent.getBoundingClientRect().right > width + 1 && !hidden(parent)) continue;
        problems.push(`${describeElement(el)} reaches ${Math.round(rect.right)} px`);
        continue;
      }
      const style = getComputedStyle(el);
      if (style.overflowX === "visible" && style.display !== "inline" && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0 && el.tagName !== "svg") {
        problems.push(`${describeElement(el)} spills ${el.scrollWidth - el.clientWidth} px out of its ${el.clientWidth} px box`);
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
    const controls = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"], [tabindex]:not([tabindex="-1"])';
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
      if (!rect.width || !rect.height || style.visibility === "hidden" || style.clip !== "auto" || style.clipPath !== "none") continue;
      if (el.tagName === "A" && style.display === "inline" && inSentence(el)) continue;
      if (rect.width < min - 0.5 || rect.height < min - 0.5) {
        const name = el.getAttribute("aria-label") ?? el.textContent?.trim().slice(0, 30) ?? "";
        small.push(`<${el.tagName.toLowerCase()}${el.getAttribute("type") ? ` type=${el.getAttribute("type")}` : ""}> "${name}" is ${Math.round(rect.width)}x${Math.round(rect.height)} px`);
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
  return !!box && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width + 1 && box.y + box.height <= size.height + 1;
}

