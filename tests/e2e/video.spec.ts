// Video rooms in the browser (docs/calendars.md). The window is decided by the server's clock, so
// this spec runs a stack of its own whose data it can place in time: the API in this process on
// a scratch database (appointments starting minutes from now, which no booking can make), and the
// production web server in front of it (API_URL), with VIDEO_BASE_URL set.
import type { Page } from "@playwright/test";
import { PASSWORD, startApi, type TestApi } from "../../api/test/harness.ts";
import { insertAppointment } from "../../api/appointment/test-factories.ts";
import { resetConfigForTests } from "../../config.ts";
import { startWebServer } from "../../app/test/web-server.ts";
import { expect, test } from "./support.ts";

const VIDEO = "https://meet.example.test";

test.describe.configure({ mode: "serial" });

let api: TestApi;
let web: Awaited<ReturnType<typeof startWebServer>>;
let people: Record<"patient" | "doctor" | "stranger", { email: string; name: string }>;
let soon: string;
let tomorrow: { id: string; opensAt: string };

test.beforeAll(async () => {
  test.setTimeout(180_000);
  process.env.VIDEO_BASE_URL = VIDEO;
  resetConfigForTests();
  api = await startApi();
  web = await startWebServer({ env: { API_URL: api.url } });
  const patient = await api.createPatient({ username: "Ann Eyong" });
  const stranger = await api.createPatient({ username: "Someone Else" });
  const doctor = await api.createDoctor({ username: "Paul Ngo" });
  people = {
    patient: { email: patient.user.email, name: "Ann Eyong" },
    doctor: { email: doctor.user.email, name: "Paul Ngo" },
    stranger: { email: stranger.user.email, name: "Someone Else" },
  };
  const base = {
    patientId: patient.user.id,
    doctorId: doctor.user.id,
    status: "confirmed" as const,
    type: "online" as const,
  };
  soon = (await insertAppointment(api.db, { ...base, startsAt: new Date(Date.now() + 5 * 60_000) })).id;
  const start = new Date(Date.now() + 26 * 60 * 60_000);
  tomorrow = {
    id: (await insertAppointment(api.db, { ...base, startsAt: start })).id,
    opensAt: new Intl.DateTimeFormat("en-GB", {
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: "Africa/Douala",
    }).format(new Date(start.getTime() - 15 * 60_000)),
  };
});

test.afterAll(async () => {
  await web?.stop();
  await api?.close();
  delete process.env.VIDEO_BASE_URL;
  resetConfigForTests();
});

async function signIn(page: Page, who: keyof typeof people) {
  await page.goto(`${web.url}/login`);
  await page.getByRole("radio", { name: who === "doctor" ? "Doctor" : "Patient" }).check();
  await page.getByLabel("Email").fill(people[who].email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

/** Every address the page asked for: none may be the video service's. */
function watchRequests(page: Page) {
  const seen: string[] = [];
  page.on("request", (request) => seen.push(request.url()));
  return seen;
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("both parties get the same room link in the window; before it, the time it appears", async ({ page }) => {
      const requests = watchRequests(page);
      await signIn(page, "patient");
      await page.goto(`${web.url}/health/doctors/my-appointments?appointment=${soon}`);
      const join = page.getByRole("dialog").getByRole("link", { name: "Join the video consultation" });
      await expect(join).toHaveAttribute("href", new RegExp(`^${VIDEO}/[0-9a-f]{32}$`));
      await expect(join).toHaveAttribute("target", "_blank");
      await expect(join).toHaveAttribute("rel", "noopener noreferrer");
      const room = await join.getAttribute("href");

      await page.goto(`${web.url}/health/doctors/my-appointments?appointment=${tomorrow.id}`);
      const later = page.getByRole("dialog");
      await expect(
        later.getByText(
          `The link to the video consultation will appear here at ${tomorrow.opensAt}, 15 minutes before the start.`,
        ),
      ).toBeVisible();
      await expect(later.getByRole("link", { name: "Join the video consultation" })).toHaveCount(0);

      await page.context().clearCookies();
      await signIn(page, "doctor");
      await page.context().addCookies([{ name: "i18nextLng", value: "fr", url: web.url }]);
      await page.goto(`${web.url}/doctor/appointments?appointment=${soon}`);
      await expect(
        page.getByRole("dialog").getByRole("link", { name: "Rejoindre la consultation vidéo" }),
      ).toHaveAttribute("href", room!);
      await page.goto(`${web.url}/doctor/appointments?appointment=${tomorrow.id}`);
      await expect(
        page
          .getByRole("dialog")
          .getByText(
            `Le lien de la consultation vidéo apparaîtra ici à ${tomorrow.opensAt}, 15 minutes avant le début.`,
          ),
      ).toBeVisible();

      expect(requests.filter((url) => url.startsWith(VIDEO))).toEqual([]);
    });

    test("someone else sees no link, even with the appointment's address", async ({ page }) => {
      await signIn(page, "stranger");
      await page.goto(`${web.url}/health/doctors/my-appointments?appointment=${soon}`);
      await expect(page.getByRole("heading", { name: "My appointments" })).toBeVisible();
      await expect(page.locator(`a[href^="${VIDEO}"]`)).toHaveCount(0);
      expect(await page.content()).not.toContain("meet.example.test");
    });
  });
}
