import { beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { PASSWORD, refusal, setUpApi } from "../test/harness.ts";
import { rateLimits, users } from "../db/schema.ts";
import { ageCode, registerPatient, wrongCode } from "./test-helpers.ts";
import { loggedIn, notice } from "../../contract/auth.ts";

const api = setUpApi();
beforeEach(async () => {
  await api.db.delete(rateLimits);
});

const mailsTo = (email: string) => api.mailer.messages.filter((m) => m.to.toLowerCase() === email.toLowerCase());
const forgot = (email: unknown) => api.request("POST", "/auth/forgot-password", { answer: notice, body: { email } });
const reset = (body: unknown) => api.request("POST", "/auth/reset-password", { answer: notice, body });
const login = (email: string, password: string) =>
  api.request("POST", "/auth/login", { answer: loggedIn, body: { email, password, role: "patient" } });

describe("POST /auth/forgot-password", () => {
  it("mails a reset code to an existing account", async () => {
    const { user } = await api.createPatient();
    const res = await forgot(user.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("If an account exists for this e-mail, a reset code has been sent.");
    expect(mailsTo(user.email)).toHaveLength(1);
    expect(mailsTo(user.email)[0].subject).toMatch(/password reset code/);
    expect(api.mailer.lastCodeFor(user.email)).toMatch(/^\d{6}$/);
  });

  it("answers an unknown address exactly as an existing one, and mails nothing", async () => {
    const { user } = await api.createPatient();
    const before = api.mailer.messages.length;
    const unknown = api.unique("nobody");
    const [a, b] = [await forgot(user.email), await forgot(unknown)];
    expect([a.status, a.body]).toEqual([b.status, b.body]);
    expect(api.mailer.messages.length).toBe(before + 1);
    expect(mailsTo(unknown)).toHaveLength(0);
  });

  it("sends at most once a minute, still answering 200", async () => {
    const { user } = await api.createPatient();
    expect((await forgot(user.email)).status).toBe(200);
    const again = await forgot(user.email);
    expect(again.status).toBe(200);
    expect(mailsTo(user.email)).toHaveLength(1);
  });

  it("refuses an invalid e-mail with 400", async () => {
    expect((await forgot("nope")).status).toBe(400);
    expect(refusal(await forgot(undefined)).message).toBe("Email is required");
  });
});

describe("POST /auth/reset-password", () => {
  it("sets the new password with the mailed code and revokes every session", async () => {
    const { user, token } = await api.createPatient();
    await forgot(user.email);
    const res = await reset({ email: user.email, code: api.mailer.lastCodeFor(user.email), password: "NewPass99" });
    expect(res.status).toBe(200);
    expect(res.body.message).toBeTruthy();
    expect((await api.request("GET", "/patient/me", { token })).status).toBe(401);
    expect((await login(user.email, PASSWORD)).status).toBe(401);
    expect((await login(user.email, "NewPass99")).status).toBe(200);
  });

  it("uses a code once", async () => {
    const { user } = await api.createPatient();
    await forgot(user.email);
    const code = api.mailer.lastCodeFor(user.email);
    await reset({ email: user.email, code, password: "NewPass99" });
    const again = await reset({ email: user.email, code, password: "Other999" });
    expect(again.status).toBe(400);
    expect(refusal(again).code).toBe("invalid_code");
    expect((await login(user.email, "NewPass99")).status).toBe(200);
  });

  it("verifies an unverified account (the mailed code proves the address)", async () => {
    const r = await registerPatient(api);
    await forgot(r.email);
    await reset({ email: r.email, code: api.mailer.lastCodeFor(r.email), password: "NewPass99" });
    const [row] = await api.db.select().from(users).where(eq(users.id, r.id));
    expect(row.otpVerified).toBe(true);
    expect((await login(r.email, "NewPass99")).status).toBe(200);
  });

  it("answers 'Invalid code' for a wrong code and the same for an unknown e-mail", async () => {
    const { user } = await api.createPatient();
    await forgot(user.email);
    const wrong = await reset({
      email: user.email,
      code: wrongCode(api.mailer.lastCodeFor(user.email)!),
      password: "NewPass99",
    });
    const unknown = await reset({ email: api.unique("nobody"), code: "123456", password: "NewPass99" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ message: "Invalid code. Please try again.", code: "invalid_code" });
    expect([unknown.status, unknown.body]).toEqual([wrong.status, wrong.body]);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it("answers 'Invalid code' when no reset was asked for", async () => {
    const { user } = await api.createPatient();
    const res = await reset({ email: user.email, code: "123456", password: "NewPass99" });
    expect(refusal(res).code).toBe("invalid_code");
  });

  it("refuses an expired code", async () => {
    const { user } = await api.createPatient();
    await forgot(user.email);
    await ageCode(api, user.id, "reset", { expired: true });
    const res = await reset({ email: user.email, code: api.mailer.lastCodeFor(user.email), password: "NewPass99" });
    expect(res.status).toBe(400);
    expect(refusal(res).code).toBe("code_expired");
  });

  it("allows 5 tries per code, then 429", async () => {
    const { user } = await api.createPatient();
    await forgot(user.email);
    const code = api.mailer.lastCodeFor(user.email)!;
    for (let i = 0; i < 4; i++)
      expect((await reset({ email: user.email, code: wrongCode(code), password: "NewPass99" })).status).toBe(400);
    expect((await reset({ email: user.email, code: wrongCode(code), password: "NewPass99" })).status).toBe(429);
    const right = await reset({ email: user.email, code, password: "NewPass99" });
    expect(right.status).toBe(429);
    expect(refusal(right).code).toBe("too_many_attempts");
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });

  it.each([
    [{ code: "123456", password: "NewPass99" }, "Email is required"],
    [{ email: "x@example.test", code: "12345", password: "NewPass99" }, "Please enter the complete 6-digit code"],
    [{ email: "x@example.test", code: "123456", password: "short" }, "Password must be at least 6 characters"],
    [{ email: "x@example.test", code: "123456" }, "Password is required"],
  ])("refuses %j with 400 %s", async (body, message) => {
    const res = await reset(body);
    expect(res.status).toBe(400);
    expect(refusal(res).message).toBe(message);
  });

  it("does not spend a try on a too-short password", async () => {
    const { user } = await api.createPatient();
    await forgot(user.email);
    const code = api.mailer.lastCodeFor(user.email);
    await reset({ email: user.email, code, password: "abc" });
    expect((await reset({ email: user.email, code, password: "Valid123" })).status).toBe(200);
  });
});
