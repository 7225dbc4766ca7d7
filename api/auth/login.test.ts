import { beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { PASSWORD, refusal, setUpApi } from "../test/harness.ts";
import { apiTokens, rateLimits, users } from "../db/schema.ts";
import { LIMITS } from "../throttle.ts";
import { rawRequest, registerPatient } from "./test-helpers.ts";
import { loggedIn } from "../../contract/auth.ts";

const api = setUpApi();
beforeEach(async () => {
  await api.db.delete(rateLimits);
});

const login = (body: unknown) => api.request("POST", "/auth/login", { answer: loggedIn, body });
const LOGIN_FAILED = { message: "Login failed", code: "login_failed" };

describe("POST /auth/login", () => {
  it("logs a patient in: the user data and an opaque token that works", async () => {
    const ref = await api.reference();
    const { user } = await api.createPatient({
      countryId: ref.cameroon.id,
      cityId: ref.city("Douala").id,
      username: "Awa Patient",
    });
    const res = await login({ email: user.email, password: PASSWORD, role: "patient" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["data", "token"]);
    expect(Object.keys(res.body.data).sort()).toEqual(
      [
        "id",
        "username",
        "email",
        "dateOfBirth",
        "phone",
        "address",
        "gender",
        "otpCode",
        "otpVerified",
        "userRole",
        "avatarUrl",
        "resetCode",
        "createdAt",
        "updatedAt",
        "Country",
        "City",
      ].sort(),
    );
    expect(res.body.data).toMatchObject({
      id: user.id,
      username: "Awa Patient",
      email: user.email,
      otpCode: null,
      resetCode: null,
      otpVerified: true,
      userRole: "patient",
      Country: { id: ref.cameroon.id, name: "Cameroon", code: "CM" },
      City: { id: ref.city("Douala").id, name: "Douala" },
    });
    expect(JSON.stringify(res.body.data)).not.toContain("argon2");
    const token = res.body.token.token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [stored] = await api.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.userId, user.id))
      .orderBy(sql`${apiTokens.id} desc`)
      .limit(1);
    expect(stored.tokenHash).not.toBe(token);
    expect((await api.request("GET", "/patient/me", { token })).status).toBe(200);
  });

  it("accepts the e-mail in any case and with spaces", async () => {
    const { user } = await api.createPatient();
    const res = await login({ email: `  ${user.email.toUpperCase()} `, password: PASSWORD, role: "patient" });
    expect(res.status).toBe(200);
  });

  it("logs a doctor in, and an unverified (pending) doctor too", async () => {
    const verified = await api.createDoctor();
    const pending = await api.createDoctor({ verification: "pending" });
    for (const d of [verified, pending]) {
      const res = await login({ email: d.user.email, password: PASSWORD, role: "doctor" });
      expect(res.status).toBe(200);
      expect(res.body.data.userRole).toBe("doctor");
    }
  });

  it("lets an admin in whichever role the form chose", async () => {
    const { user } = await api.createAdmin();
    for (const role of ["patient", "doctor", "admin"]) {
      const res = await login({ email: user.email, password: PASSWORD, role });
      expect(res.status).toBe(200);
      expect(res.body.data.userRole).toBe("admin");
    }
  });

  it("answers one generic 401 for a wrong e-mail or a wrong password, whatever the role chosen", async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor();
    const answers = [
      await login({ email: api.unique("nobody"), password: PASSWORD, role: "patient" }),
      await login({ email: api.unique("nobody"), password: PASSWORD, role: "doctor" }),
      await login({ email: patient.user.email, password: "Wrong123!", role: "patient" }),
      await login({ email: patient.user.email, password: "Wrong123!", role: "doctor" }),
      await login({ email: doctor.user.email, password: "Wrong123!", role: "patient" }),
    ];
    for (const a of answers) {
      expect(a.status).toBe(401);
      expect(a.body).toEqual(LOGIN_FAILED);
    }
  });

  it("says which role to choose once the password is right, and issues no token", async () => {
    const patient = await api.createPatient();
    const doctor = await api.createDoctor();
    const asPatient = await login({ email: doctor.user.email, password: PASSWORD, role: "patient" });
    expect(asPatient.status).toBe(401);
    expect(asPatient.body).toEqual({
      message: "This is a doctor account: choose 'Doctor' to log in",
      code: "wrong_role",
      role: "doctor",
    });
    const asDoctor = await login({ email: patient.user.email, password: PASSWORD, role: "doctor" });
    expect(asDoctor.body).toEqual({
      message: "This is a patient account: choose 'Patient' to log in",
      code: "wrong_role",
      role: "patient",
    });
    // Only the factory's token: the wrong role let nobody in.
    expect(await api.db.select().from(apiTokens).where(eq(apiTokens.userId, doctor.user.id))).toHaveLength(1);
  });

  it("refuses a deleted account", async () => {
    const patient = await api.createPatient();
    await api.request("DELETE", "/auth/delete-account", { token: patient.token });
    const res = await login({ email: patient.user.email, password: PASSWORD, role: "patient" });
    expect(res.body).toEqual(LOGIN_FAILED);
  });

  it("sends an unverified account with the right password to verification (403 with userId)", async () => {
    const r = await registerPatient(api);
    const res = await login({ email: r.email, password: r.password, role: "patient" });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      message: "Please verify your account first",
      code: "unverified",
      userId: r.id,
      email: r.email,
    });
    // No token was issued.
    expect(await api.db.select().from(apiTokens).where(eq(apiTokens.userId, r.id))).toHaveLength(0);
    // With a wrong password it is an ordinary failure: nothing about the account leaks.
    const wrong = await login({ email: r.email, password: "Wrong123!", role: "patient" });
    expect(wrong.body).toEqual(LOGIN_FAILED);
  });

  describe("validation", () => {
    it.each([
      [{ password: PASSWORD, role: "patient" }, "Email is required"],
      [{ email: "nope", password: PASSWORD, role: "patient" }, "Please enter a valid email"],
      [{ email: "a@example.test", role: "patient" }, "Password is required"],
      [{ email: "a@example.test", password: "", role: "patient" }, "Password is required"],
      [{ email: "a@example.test", password: PASSWORD }, "Role is required"],
      [{ email: "a@example.test", password: PASSWORD, role: "nurse" }, "Invalid role selected"],
    ])("%j -> 400 %s", async (body, message) => {
      const res = await login(body);
      expect(res.status).toBe(400);
      expect(refusal(res).message).toBe(message);
    });
  });

  describe("throttling (shared in the database)", () => {
    // The API trusts its web tier on loopback to name the browser's address in X-Forwarded-For.
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    const loginFrom = (ip: string, body: unknown) => rawRequest(api, "POST", "/auth/login", body, from(ip));
    const wrong = (email: string) => ({ email, password: "Wrong123!", role: "patient" });
    const { points: PAIR } = LIMITS.loginPair;

    it("holds the pair of account and address after 5 failures with 429 and Retry-After, even for the right password", async () => {
      const { user } = await api.createPatient();
      for (let i = 0; i < PAIR; i++) expect((await loginFrom("203.0.113.10", wrong(user.email))).status).toBe(401);
      const blocked = await loginFrom("203.0.113.10", {
        email: user.email.toUpperCase(),
        password: PASSWORD,
        role: "patient",
      });
      expect(blocked.status).toBe(429);
      expect(blocked.body).toEqual({
        message: "Too many attempts. Please try again later.",
        code: "too_many_attempts",
      });
      const retryAfter = Number(blocked.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(LIMITS.loginPair.duration);
      // Other accounts from the same address are not affected by one account's block.
      const other = await api.createPatient();
      expect(
        (await loginFrom("203.0.113.10", { email: other.user.email, password: PASSWORD, role: "patient" })).status,
      ).toBe(200);
    });

    it("does not lock the real user out: an attacker's failures from one address leave the account open from another", async () => {
      const { user } = await api.createPatient();
      for (let i = 0; i < PAIR * 3; i++) await loginFrom("198.51.100.66", wrong(user.email));
      expect((await loginFrom("198.51.100.66", wrong(user.email))).status).toBe(429);
      const real = await loginFrom("192.0.2.20", { email: user.email, password: PASSWORD, role: "patient" });
      expect(real.status).toBe(200);
    });

    it("has a per-account ceiling against guessing spread over addresses, which an address that logged in before passes", async () => {
      const { user } = await api.createPatient();
      // The real user logged in from home once.
      expect((await loginFrom("192.0.2.30", { email: user.email, password: PASSWORD, role: "patient" })).status).toBe(
        200,
      );
      // The ceiling reached from many addresses (written directly: a botnet's worth of requests).
      await api.db.insert(rateLimits).values({
        key: `loginAccount:${user.email}`,
        points: LIMITS.loginAccount.points,
        expire: new Date(Date.now() + 3600_000),
      });
      const fresh = await loginFrom("198.51.100.77", { email: user.email, password: PASSWORD, role: "patient" });
      expect(fresh.status).toBe(429);
      expect((await loginFrom("192.0.2.30", { email: user.email, password: PASSWORD, role: "patient" })).status).toBe(
        200,
      );
    });

    it("a success forgets the pair's failures", async () => {
      const { user } = await api.createPatient();
      for (let i = 0; i < PAIR - 1; i++) await loginFrom("203.0.113.11", wrong(user.email));
      expect((await loginFrom("203.0.113.11", { email: user.email, password: PASSWORD, role: "patient" })).status).toBe(
        200,
      );
      for (let i = 0; i < PAIR - 1; i++) expect((await loginFrom("203.0.113.11", wrong(user.email))).status).toBe(401);
      expect((await loginFrom("203.0.113.11", { email: user.email, password: PASSWORD, role: "patient" })).status).toBe(
        200,
      );
    });

    it("starts a new window once the last one has passed", async () => {
      const { user } = await api.createPatient();
      for (let i = 0; i < PAIR; i++) await loginFrom("203.0.113.12", wrong(user.email));
      expect((await loginFrom("203.0.113.12", wrong(user.email))).status).toBe(429);
      await api.db
        .update(rateLimits)
        .set({ expire: new Date(Date.now() - 1000) })
        .where(eq(rateLimits.key, `loginPair:${user.email}|203.0.113.12`));
      expect((await loginFrom("203.0.113.12", { email: user.email, password: PASSWORD, role: "patient" })).status).toBe(
        200,
      );
    });

    it("throttles unknown e-mails the same way (no enumeration through the throttle)", async () => {
      const email = api.unique("ghost");
      for (let i = 0; i < PAIR; i++)
        expect((await loginFrom("203.0.113.13", { email, password: "x", role: "patient" })).status).toBe(401);
      expect((await loginFrom("203.0.113.13", { email, password: "x", role: "patient" })).status).toBe(429);
    });

    it("holds an address that sprays failures over many accounts", async () => {
      const ip = "203.0.113.14";
      // Spraying written directly up to one below the limit, then the last failure through the API.
      await api.db.insert(rateLimits).values({
        key: `loginAddress:${ip}`,
        points: LIMITS.loginAddress.points - 1,
        expire: new Date(Date.now() + 3600_000),
      });
      expect((await loginFrom(ip, wrong(api.unique("spray")))).status).toBe(401);
      const { user } = await api.createPatient();
      const blocked = await loginFrom(ip, { email: user.email, password: PASSWORD, role: "patient" });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      // Someone else behind another address is not affected.
      expect((await loginFrom("203.0.113.15", { email: user.email, password: PASSWORD, role: "patient" })).status).toBe(
        200,
      );
    });

    it("reads the address from X-Forwarded-For only as its trusted web tier sends it: the last entry", async () => {
      const { user } = await api.createPatient();
      // A client that forges the first entry cannot escape its own (last, proxy-written) address.
      for (let i = 0; i < PAIR; i++) await loginFrom(`10.9.9.${i}, 203.0.113.16`, wrong(user.email));
      expect((await loginFrom("10.9.9.99, 203.0.113.16", wrong(user.email))).status).toBe(429);
    });
  });
});

describe("POST /auth/logout", () => {
  it("revokes the presented token only: 204, then 401 everywhere with it", async () => {
    const { user } = await api.createPatient();
    const first = (await login({ email: user.email, password: PASSWORD, role: "patient" })).body.token.token;
    const second = (await login({ email: user.email, password: PASSWORD, role: "patient" })).body.token.token;
    const res = await api.request("POST", "/auth/logout", { token: first });
    expect(res.status).toBe(204);
    expect((await api.request("GET", "/patient/me", { token: first })).status).toBe(401);
    expect((await api.request("POST", "/auth/logout", { token: first })).status).toBe(401);
    expect((await api.request("DELETE", "/auth/delete-account", { token: first })).status).toBe(401);
    expect((await api.request("GET", "/patient/me", { token: second })).status).toBe(200);
  });

  it("needs a token", async () => {
    const res = await api.request("POST", "/auth/logout");
    expect(res.status).toBe(401);
    expect(refusal(res).message).toBe("Unauthorized access");
  });
});

describe("the stored user", () => {
  it("never holds codes or passwords in clear", async () => {
    const r = await registerPatient(api);
    const [row] = await api.db.select().from(users).where(eq(users.id, r.id));
    expect(JSON.stringify(row)).not.toContain(r.password);
    expect(JSON.stringify(row)).not.toContain(r.code);
  });
});
