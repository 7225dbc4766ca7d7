// What the web tier remembers between requests (docs/performance.md: texts, languages, the country
// list, the clinic zone's wording) is the same for everyone and never a page or a user's data: pages
// asked in turn by two users in two languages each show their own, and a booking made a moment
// before shows on the next page at once. On the production build and its embedded API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login } from "../bench/support.ts";
import { startWebServer, type WebServer } from "./test/web-server.ts";

let app: WebServer;
beforeAll(async () => {
  app = await startWebServer();
}, 120_000);
afterAll(() => app?.stop());

async function page(path: string, cookie: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}${path}`, { headers: { cookie, ...headers } });
  expect(res.status).toBe(200);
  return res.text();
}

async function api<T>(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${app.url}/api${path}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

const allCount = (html: string) =>
  Number(
    html.match(/(?:All my appointments, every status|Tous mes rendez-vous, tous statuts confondus)\s*:\s*(\d+)/)?.[1] ??
      Number.NaN,
  );

describe("what the web tier remembers", () => {
  it("gives each user their own page, in their own language, asked in turn", async () => {
    const patient = await login(app.url, "patient@example.com", "patient");
    const doctor = await login(app.url, "doctor@example.com", "doctor");
    for (let round = 0; round < 3; round++) {
      const english = await page("/health/doctors", patient, { "accept-language": "en" });
      const french = await page("/health/doctors", `${patient}; i18nextLng=fr`, { "accept-language": "en" });
      const doctorsPage = await page("/doctor/appointments", doctor, { "accept-language": "fr-CA" });
      expect(english).toMatch(/<html lang="en"/);
      expect(english).toContain("Find a doctor");
      expect(french).toMatch(/<html lang="fr"/);
      expect(french).not.toContain("Find a doctor");
      expect(french).toContain("Cameroun");
      expect(english).toContain("Cameroon");
      expect(doctorsPage).toMatch(/<html lang="fr"/);
      // The page carries its own language's texts, not the other's.
      expect(french).not.toMatch(/"language":"en"/);
      expect(english).not.toMatch(/"language":"fr"/);
    }
  });

  it("shows a booking made a moment before on the next page at once", async () => {
    const cookie = await login(app.url, "patient@example.com", "patient");
    const signedIn = await api<{ token: { token: string } }>("POST", "/auth/login", undefined, {
      email: "patient@example.com",
      password: "Demo1234!",
      role: "patient",
    });
    const token = signedIn.body.token.token;
    const doctor = await api<{ doctors: { id: string; specialities: { id: number }[] }[] }>(
      "GET",
      "/doctor?limit=1",
      token,
    );
    const { id: doctorId, specialities } = doctor.body.doctors[0]!;
    for (const language of ["en", "fr"]) {
      const before = allCount(await page("/health/doctors", `${cookie}; i18nextLng=${language}`));
      expect(before).toBeGreaterThanOrEqual(0);
      // The doctor's next free slot, as the search's card shows it: a day and time the working
      // plan, the closed days and the bookings allow (a random day could be a weekend or too far).
      const next = await api<{ doctors: { nextSlot: { date: string; time: string } | null }[] }>(
        "GET",
        `/doctor?id=${doctorId}`,
        token,
      );
      const slot = next.body.doctors[0]!.nextSlot!;
      const created = await api("POST", "/appointment", token, {
        doctorId,
        specialityId: specialities[0]?.id,
        type: "online",
        status: "pending",
        category: "direct",
        date: slot.date,
        time: slot.time.slice(11, 16),
      });
      expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
      expect(allCount(await page("/health/doctors", `${cookie}; i18nextLng=${language}`))).toBe(before + 1);
    }
  });
});
