// Printed pages keep a margin on paper (docs/layout.md, Print): the doctor's printable consultation
// record and schedule, as the browser lays them out for print, carry an @page margin of at least
// 10 mm on every side, and the screen-only note ('Use your browser's Print command') is not printed.
import type { Page } from "@playwright/test";
import { api, book, signIn, uniqueName } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";

/** The margins, in millimetres, of the @page rules that apply to every printed page. */
async function pageMargins(page: Page) {
  return page.evaluate(() => {
    const mm = (value: string) => {
      const m = value.match(/^([\d.]+)(mm|cm|in|px|pt)$/);
      if (!m) return 0;
      const n = Number(m[1]);
      return { mm: n, cm: n * 10, in: n * 25.4, px: (n * 25.4) / 96, pt: (n * 25.4) / 72 }[m[2] as "mm"];
    };
    const found: { top: number; right: number; bottom: number; left: number }[] = [];
    for (const sheet of Array.from(document.styleSheets)) {
      for (const rule of Array.from(sheet.cssRules)) {
        if (rule instanceof CSSPageRule && !rule.selectorText) {
          const s = rule.style;
          found.push({
            top: mm(s.getPropertyValue("margin-top")),
            right: mm(s.getPropertyValue("margin-right")),
            bottom: mm(s.getPropertyValue("margin-bottom")),
            left: mm(s.getPropertyValue("margin-left")),
          });
        }
      }
    }
    return found;
  });
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`printed pages (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("the consultation record and the schedule print with margins, without the screen note", async ({
      page,
      patient,
      doctor,
      generalPractice,
    }) => {
      // A doctor keeps records of their own patients only: one booking makes this patient theirs.
      await book(patient, doctor.id, generalPractice);
      const diagnosis = uniqueName("Print check");
      const created = await api("POST", "/consultation", {
        token: doctor.token,
        body: { patientId: patient.id, type: "follow-up", diagnosis, notes: "Fever.", prescription: ["Rest"] },
      });
      expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
      await signIn(page, doctor.email, "doctor");

      for (const path of [`/doctor/consultations/${created.body.id}/print`, "/doctor/schedule/print"]) {
        await page.goto(path);
        const note = page.getByRole("note");
        await expect(note).toBeVisible();
        await page.emulateMedia({ media: "print" });
        await expect(note, `${path}: the screen note is printed`).toBeHidden();
        const margins = await pageMargins(page);
        expect(margins.length, `${path}: no @page rule sets the printed margin`).toBeGreaterThan(0);
        for (const m of margins) {
          for (const side of ["top", "right", "bottom", "left"] as const) {
            expect(m[side], `${path}: @page margin-${side} (mm)`).toBeGreaterThanOrEqual(10);
          }
        }
        // And the browser prints it: a PDF of at least one page.
        const pdf = await page.pdf({ format: "A4" });
        expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
        await page.emulateMedia({ media: "screen" });
      }
    });
  });
}
