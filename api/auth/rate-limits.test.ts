// Floods of the anonymous account routes from one client address end in 429 with Retry-After, and
// leave everyone else alone. Counters are in the database (rate_limits), shared by every instance.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { setUpApi } from "../test/harness.ts";
import { LIMITS } from "../throttle.ts";
import { patientPayload, rawRequest } from "./test-helpers.ts";

const api = setUpApi();

const RATE_LIMITED = { message: "Too many requests. Please wait a few minutes and try again.", code: "rate_limited" };
const post = (ip: string, path: string, body: unknown, method = "POST") =>
  rawRequest(api, method, path, body, { "x-forwarded-for": ip });

/**
 * From `attacker` (an address of its own per test), sends `limit` calls that must pass, then one that
 * must be refused; another address still passes.
 */
async function flood(
  attacker: string,
  limit: number,
  call: (ip: string) => Promise<{ status: number }>,
  passing: number,
) {
  for (let i = 0; i < limit; i++) expect((await call(attacker)).status).toBe(passing);
  const refused = (await call(attacker)) as Awaited<ReturnType<typeof rawRequest>>;
  expect(refused.status).toBe(429);
  expect(refused.body).toEqual(RATE_LIMITED);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  expect((await call(`192.0.2.${attacker.split(".")[3]}`)).status).toBe(passing);
}

describe("per-address limits on the anonymous account routes", () => {
  it(`register: ${LIMITS.register.points} an hour, then 429`, async () => {
    await flood("203.0.113.1", LIMITS.register.points, (ip) => post(ip, "/auth/register", patientPayload(api)), 201);
  });

  it(`forgot-password: ${LIMITS.forgotPassword.points} per quarter hour, then 429`, async () => {
    await flood(
      "203.0.113.2",
      LIMITS.forgotPassword.points,
      (ip) => post(ip, "/auth/forgot-password", { email: api.unique("forgot") }),
      200,
    );
  });

  it(`resendVerification: ${LIMITS.resend.points} per quarter hour, then 429`, async () => {
    await flood(
      "203.0.113.3",
      LIMITS.resend.points,
      (ip) => post(ip, "/auth/resendVerification", { email: api.unique("resend") }),
      200,
    );
  });

  it(`code checks (verification, password reset) share ${LIMITS.codeCheck.points} per quarter hour, then 429`, async () => {
    let i = 0;
    // Alternating the two routes: guessing cannot escape the limit by switching between them.
    const check = (ip: string) =>
      ++i % 2
        ? post(ip, `/auth/verifyUser/${randomUUID()}`, { otpCode: "123456" }, "PUT")
        : post(ip, "/auth/reset-password", { email: api.unique("reset"), code: "123456", password: "Secret123!" });
    await flood("203.0.113.4", LIMITS.codeCheck.points, check, 400);
  });

  it("the profile code check of a signed-in doctor counts too", async () => {
    const doctor = await api.createDoctor();
    const check = (ip: string) =>
      rawRequest(
        api,
        "PUT",
        `/auth/verifyProfileOtp/${doctor.user.id}`,
        { otpCode: "123456" },
        { "x-forwarded-for": ip, authorization: `Bearer ${doctor.token}` },
      );
    const attacker = "203.0.113.250";
    for (let i = 0; i < LIMITS.codeCheck.points; i++) expect((await check(attacker)).status).toBe(400);
    const refused = await check(attacker);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(RATE_LIMITED);
  });
});
