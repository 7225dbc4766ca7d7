// One token check per page (api/auth/page-scope.ts): the calls a page makes with one scope share
// one lookup of the token; a key the web tier did not open changes nothing; and a token revoked
// while a scope is open stops working on the next call of that very page.
import { describe, expect, it } from "vitest";
import { setUpApi } from "../test/harness.ts";
import { tokenLookupsDuring } from "../test/token-checks.ts";
import { PAGE_SCOPE_HEADER } from "../../contract/api-transport.ts";
import { closePageScope, openPageScope } from "./page-scope.ts";

const api = setUpApi();

describe("page scopes", () => {
  it("two calls side by side in one scope look the token up once; without a scope, once each", async () => {
    const { token } = await api.createPatient();
    const scope = openPageScope();
    expect(scope).toBeTypeOf("string");
    const headers = { [PAGE_SCOPE_HEADER]: scope! };
    try {
      const shared = await tokenLookupsDuring(async () => {
        const [summary, search] = await Promise.all([
          api.request("GET", "/patient/summary", { token, headers }),
          api.request("GET", "/doctor", { token, headers }),
        ]);
        expect([summary.status, search.status]).toEqual([200, 200]);
        expect((await api.request("GET", "/patient/me", { token, headers })).status).toBe(200);
      });
      expect(shared).toBe(1);
    } finally {
      closePageScope(scope);
    }
    const alone = await tokenLookupsDuring(() =>
      Promise.all([api.request("GET", "/patient/summary", { token }), api.request("GET", "/doctor", { token })]),
    );
    expect(alone).toBe(2);
  });

  it("a key this process did not open (a client's guess, a closed page) is ignored: the token is looked up", async () => {
    const { token } = await api.createPatient();
    const closed = openPageScope()!;
    closePageScope(closed);
    for (const key of ["made-up-key", closed]) {
      const n = await tokenLookupsDuring(async () => {
        expect(
          (await api.request("GET", "/patient/summary", { token, headers: { [PAGE_SCOPE_HEADER]: key } })).status,
        ).toBe(200);
        expect(
          (await api.request("GET", "/patient/summary", { token, headers: { [PAGE_SCOPE_HEADER]: key } })).status,
        ).toBe(200);
      });
      expect(n).toBe(2);
    }
  });

  it("a scope answers only for the token it checked: another user's token in the same scope is looked up, and refused when dead", async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor();
    const scope = openPageScope()!;
    const headers = { [PAGE_SCOPE_HEADER]: scope };
    try {
      expect((await api.request("GET", "/patient/summary", { token: patient.token, headers })).status).toBe(200);
      // The doctor's token in the patient's scope is the doctor, not the patient.
      const asDoctor = await api.request("GET", "/doctor/summary", { token: doctor.token, headers });
      expect(asDoctor.status).toBe(200);
      expect((await api.request("GET", "/patient/summary", { token: doctor.token, headers })).status).toBe(403);
      expect((await api.request("GET", "/patient/summary", { token: "not-a-token", headers })).status).toBe(401);
    } finally {
      closePageScope(scope);
    }
  });

  it.each([
    ["logout", "POST", "/auth/logout", 204],
    ["a deleted account", "DELETE", "/auth/delete-account", 200],
  ])(
    "%s inside an open scope: the next call of the same page is refused at once",
    async (_what, method, path, status) => {
      const { token } = await api.createPatient();
      const scope = openPageScope()!;
      const headers = { [PAGE_SCOPE_HEADER]: scope };
      try {
        expect((await api.request("GET", "/patient/me", { token, headers })).status).toBe(200);
        expect((await api.request(method, path, { token, headers })).status).toBe(status);
        expect((await api.request("GET", "/patient/me", { token, headers })).status).toBe(401);
      } finally {
        closePageScope(scope);
      }
    },
  );
});
