// Every paged list reads `page` and `limit` through one contract field (contract/fields.ts,
// pagination): a value that is not one whole number from 1 is refused 400 with a code naming the
// field, invalid_page or invalid_limit, on every list, so a client can tell which value was wrong.
import { beforeAll, describe, expect, it } from "vitest";
import { insertOpenRequest } from "./appointment/test-factories.ts";
import { refusal, setUpApi } from "./test/harness.ts";

// Each kind of bad value, as a query string would carry it.
const BAD_VALUES = {
  zero: "0",
  negative: "-3",
  "not a number": "abc",
  fraction: "1.5",
  "beyond any number": "1e400",
  "past 2^53": "99999999999999999999",
  "a number and text": "2x",
};

describe("bad page and limit values on every paged list", () => {
  const api = setUpApi();
  // Each list with the query it needs and the token of a user allowed to read it.
  const lists: { path: string; token: () => string }[] = [];

  beforeAll(async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor();
    const admin = await api.createAdmin();
    const ref = await api.reference();
    const request = await insertOpenRequest(api.db, { patientId: patient.user.id, specialityId: ref.speciality("Cardiology").id });
    lists.push(
      { path: "/doctor?", token: () => patient.token },
      { path: "/appointment?", token: () => patient.token },
      { path: "/doctor/doctor_appointments?", token: () => doctor.token },
      { path: `/appointment-proposal?appointmentId=${request.id}&`, token: () => patient.token },
      { path: "/consultation?", token: () => doctor.token },
      { path: "/notification?", token: () => patient.token },
      { path: "/patient/access-log?", token: () => patient.token },
      { path: "/admin/doctors?", token: () => admin.token },
    );
  });

  it("every list answers a good page and limit, so the refusals below are the values' own", async () => {
    expect(lists).toHaveLength(8);
    for (const list of lists) {
      const res = await api.request("GET", `${list.path}page=2&limit=5`, { token: list.token() });
      expect(res.status, list.path).toBe(200);
    }
  });

  for (const field of ["page", "limit"] as const) {
    const code = field === "page" ? "invalid_page" : "invalid_limit";
    for (const [kind, value] of Object.entries(BAD_VALUES)) {
      it(`${field}: ${kind} (${value}) is ${code} on every list`, async () => {
        for (const list of lists) {
          const res = await api.request("GET", `${list.path}${field}=${encodeURIComponent(value)}`, { token: list.token() });
          expect(res.status, list.path).toBe(400);
          expect(refusal(res).code, list.path).toBe(code);
        }
      });
    }

    it(`${field}: given twice is ${code} on every list`, async () => {
      for (const list of lists) {
        const res = await api.request("GET", `${list.path}${field}=1&${field}=2`, { token: list.token() });
        expect(res.status, list.path).toBe(400);
        expect(refusal(res).code, list.path).toBe(code);
      }
    });
  }

  it("a bad page next to a bad limit is said as the page's", async () => {
    for (const list of lists) {
      const res = await api.request("GET", `${list.path}limit=0&page=0`, { token: list.token() });
      expect(refusal(res).code, list.path).toBe("invalid_page");
    }
  });
});
