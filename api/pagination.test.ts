// Every paged list reads `page` and `limit` through one contract field (contract/fields.ts,
// pagination): a value that is not one whole number from 1 is refused 400 with a code naming the
// field, invalid_page or invalid_limit, on every list, so a client can tell which value was wrong.
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { insertOpenRequest } from "./appointment/test-factories.ts";
import { refusal, setUpApi } from "./test/harness.ts";
import { adminDoctorListQuery, staffListQuery } from "../contract/admin.ts";
import { doctorListQuery, patientListQuery, proposalListQuery } from "../contract/appointment.ts";
import { consultationListQuery } from "../contract/consultation.ts";
import { doctorSearchQuery } from "../contract/doctor.ts";
import { notificationListQuery } from "../contract/notification.ts";
import { accessLogQuery } from "../contract/patient.ts";

/**
 * Every paged list's query in the contract, by file and name: a query object whose `page` is the
 * pagination field (its code is invalid_page). Read from every contract module, so a new paged list
 * is found without being named here.
 */
async function pagedQueries() {
  const found = new Map<unknown, string>();
  const dir = new URL("../contract/", import.meta.url);
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))) {
    const module: Record<string, unknown> = await import(new URL(file, dir).href);
    for (const [name, value] of Object.entries(module)) {
      const page =
        value instanceof z.ZodObject ? (value.shape as Record<string, z.ZodType | undefined>).page : undefined;
      if (page?.meta()?.code === "invalid_page") found.set(value, `contract/${file}: ${name}`);
    }
  }
  return found;
}

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
  // Each list with its contract query, the query string it needs and the token of a user allowed to read it.
  const lists: { query: z.ZodType; path: string; token: () => string }[] = [];

  beforeAll(async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor();
    const admin = await api.createAdmin();
    const ref = await api.reference();
    const request = await insertOpenRequest(api.db, {
      patientId: patient.user.id,
      specialityId: ref.speciality("Cardiology").id,
    });
    lists.push(
      { query: doctorSearchQuery, path: "/doctor?", token: () => patient.token },
      { query: patientListQuery, path: "/appointment?", token: () => patient.token },
      { query: doctorListQuery, path: "/doctor/doctor_appointments?", token: () => doctor.token },
      {
        query: proposalListQuery,
        path: `/appointment-proposal?appointmentId=${request.id}&`,
        token: () => patient.token,
      },
      { query: consultationListQuery, path: "/consultation?", token: () => doctor.token },
      { query: notificationListQuery, path: "/notification?", token: () => patient.token },
      { query: accessLogQuery, path: "/patient/access-log?", token: () => patient.token },
      { query: adminDoctorListQuery, path: "/admin/doctors?", token: () => admin.token },
      { query: staffListQuery, path: "/admin/staff?", token: () => admin.token },
    );
  });

  it("covers every paged list of the contract", async () => {
    const paged = await pagedQueries();
    // The reading finds the lists below (it would find nothing if the field's code moved).
    expect(paged.size).toBeGreaterThanOrEqual(lists.length);
    const missing = [...paged].filter(([query]) => !lists.some((list) => list.query === query)).map(([, name]) => name);
    expect(missing, "paged lists this file does not ask").toEqual([]);
    // Each list here is a paged one, and named once.
    expect(lists.map((list) => paged.get(list.query))).not.toContain(undefined);
    expect(new Set(lists.map((list) => list.query)).size).toBe(lists.length);
  });

  it("every list answers a good page and limit, so the refusals below are the values' own", async () => {
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
          const res = await api.request("GET", `${list.path}${field}=${encodeURIComponent(value)}`, {
            token: list.token(),
          });
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
