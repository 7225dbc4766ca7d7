// A doctor marks past confirmed appointments missed (docs/product.md, No-shows): once from the
// details dialog, once from the card, and each dialog and card (and a consultation record's card)
// then says how many of the patient's appointments were missed in the last 12 months; the patient
// sees the missed status in their list.
// English and French, JavaScript off and on; on the phone at 320 px, where nothing may overflow.
// The past appointments come from the operator's demo command (the API never books in the past).
import { checkA11y } from "./support.ts";
import { overflowAt } from "./layout-support.ts";
import { api, patientSees, signIn } from "./doctor-helpers.ts";
import { expect, pastAppointments, test, type Language } from "./fixtures.ts";

const WORDS = {
  en: {
    markMissed: "Mark as missed",
    marked: "Appointment marked as missed",
    none: "No missed appointments in the last 12 months",
    one: "1 missed appointment in the last 12 months",
    two: "2 missed appointments in the last 12 months",
    missed: "Missed",
    status: "Status",
    search: "Search",
    patientApply: "Apply filters",
  },
  fr: {
    markMissed: "Marquer comme manqué",
    marked: "Rendez-vous marqué comme manqué",
    none: "Aucun rendez-vous manqué ces 12 derniers mois",
    one: "1 rendez-vous manqué ces 12 derniers mois",
    two: "2 rendez-vous manqués ces 12 derniers mois",
    missed: "Manqué",
    status: "Statut",
    search: "Rechercher",
    patientApply: "Appliquer les filtres",
  },
} as const;

for (const language of ["en", "fr"] as Language[]) {
  for (const javaScriptEnabled of [false, true]) {
    test.describe(`no-shows (${language}, JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
      test.use({ language, javaScriptEnabled });
      const w = WORDS[language];

      test("the doctor marks past appointments missed and the count shows; the patient sees them missed", async ({
        page,
        patient,
        doctor,
      }, testInfo) => {
        const phone = testInfo.project.name === "phone";
        if (phone) await page.setViewportSize({ width: 320, height: 740 });
        const fits = async () => {
          if (phone) expect(await overflowAt(page, 320)).toEqual([]);
        };
        // Two past confirmed appointments, a day apart: `older` is the second.
        const [recent, older] = await pastAppointments(doctor, patient);
        await signIn(page, doctor.email, "doctor");
        const dialog = page.getByRole("dialog");

        await test.step("the details dialog says none were missed and offers 'Mark as missed'", async () => {
          await page.goto(`/doctor/appointments?tab=assigned&appointment=${recent}`);
          await expect(dialog.getByText(w.none)).toBeVisible();
          await fits();
          await checkA11y(page);
          await dialog.getByRole("button", { name: w.markMissed }).click();
          await expect(page.getByText(w.marked)).toBeVisible();
          expect((await patientSees(patient, recent!)).status).toBe("missed");
        });

        await test.step("the missed appointment offers no more actions; the other one's dialog counts one", async () => {
          await page.goto(`/doctor/appointments?tab=assigned&appointment=${recent}`);
          await expect(dialog.getByText(w.missed, { exact: true })).toBeVisible();
          await expect(dialog.getByRole("button", { name: w.markMissed })).toHaveCount(0);
          await page.goto(`/doctor/appointments?tab=assigned&appointment=${older}`);
          await expect(dialog.getByText(w.one)).toBeVisible();
        });

        await test.step("the card of the other appointment counts one, and marks it missed", async () => {
          await page.goto(
            `/doctor/appointments?tab=assigned&status=confirmed&search=${encodeURIComponent(patient.username)}`,
          );
          const card = page.getByRole("listitem").filter({ hasText: patient.username });
          await expect(card).toHaveCount(1);
          await expect(card.getByText(w.one)).toBeVisible();
          await fits();
          await card.getByRole("button", { name: w.markMissed }).click();
          await expect(page.getByText(w.marked)).toBeVisible();
          expect((await patientSees(patient, older!)).status).toBe("missed");
        });

        await test.step("the status filter finds both missed, each card counting two", async () => {
          await page.goto(`/doctor/appointments?tab=assigned&search=${encodeURIComponent(patient.username)}`);
          await page.getByLabel(w.status).selectOption({ label: w.missed });
          await page.getByRole("button", { name: w.search, exact: true }).click();
          const cards = page.getByRole("listitem").filter({ hasText: patient.username });
          await expect(cards).toHaveCount(2);
          await expect(cards.getByText(w.two)).toHaveCount(2);
          await expect(cards.getByText(w.missed, { exact: true })).toHaveCount(2);
          await expect(cards.getByRole("button", { name: w.markMissed })).toHaveCount(0);
          await fits();
          await checkA11y(page);
        });

        await test.step("a consultation record about the patient says it too", async () => {
          const record = await api("POST", "/consultation", {
            token: doctor.token,
            body: { patientId: patient.id, type: "consultation", diagnosis: "Follow-up" },
          });
          expect(record.status, JSON.stringify(record.body)).toBe(201);
          await page.goto(`/doctor/consultations?search=${encodeURIComponent(patient.username)}`);
          const card = page.getByRole("listitem").filter({ hasText: patient.username });
          await expect(card.getByText(w.two)).toBeVisible();
          await fits();
        });

        await test.step("the patient's list shows them missed, through its status filter", async () => {
          await page.context().clearCookies();
          await signIn(page, patient.email, "patient");
          await page.goto("/health/doctors/my-appointments?tab=assigned");
          await page.getByLabel(w.status).selectOption({ label: w.missed });
          await page.getByRole("button", { name: w.patientApply }).click();
          const items = page.getByRole("main").getByRole("listitem");
          await expect(items).toHaveCount(2);
          await expect(items.getByText(w.missed, { exact: true })).toHaveCount(2);
          await fits();
        });
      });

      // The refusal's words are the same at any size and the French ones are checked by the unit
      // test of the error keys: English on the desktop only (playwright.config.ts, desktopOnlyTests).
      if (language === "en") {
        test("marking missed an appointment already marked meanwhile says where it stands", async ({
          page,
          patient,
          doctor,
        }) => {
          const [past] = await pastAppointments(doctor, patient, 1);
          await signIn(page, doctor.email, "doctor");
          await page.goto(`/doctor/appointments?tab=assigned&search=${encodeURIComponent(patient.username)}`);
          const card = page.getByRole("listitem").filter({ hasText: patient.username });
          const mark = card.getByRole("button", { name: w.markMissed });
          await expect(mark).toBeVisible();
          // Marked from elsewhere (another tab, say) while this page was open.
          expect(
            (await api("PUT", `/appointment/${past}`, { token: doctor.token, body: { status: "missed" } })).status,
          ).toBe(200);
          await mark.click();
          await expect(card.getByText("its status is now “Missed”")).toBeVisible();
          await expect(card.getByRole("button", { name: w.markMissed })).toHaveCount(0);
          expect((await patientSees(patient, past!)).status).toBe("missed");
        });
      }
    });
  }
}
