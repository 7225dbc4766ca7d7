import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { startApi, refusal, setUpApi } from "../test/harness.ts";
import { oneTimeCodes, users } from "../db/schema.ts";
import { ageCode, wrongCode } from "./test-helpers.ts";
import { profileVerified } from "../../contract/auth.ts";

const api = setUpApi();

const mailsTo = (email: string) => api.mailer.messages.filter((m) => m.to === email);
const generate = (token: string, email: unknown) =>
  api.request("POST", "/auth/generateProfileOtp", { token, body: { email } });
const resend = (token: string, userId: string) => api.request("PUT", `/auth/resendProfileOtp/${userId}`, { token });
const verify = (token: string, userId: string, otpCode: unknown) =>
  api.request("PUT", `/auth/verifyProfileOtp/${userId}`, { answer: profileVerified, token, body: { otpCode } });

describe("POST /auth/generateProfileOtp", () => {
  it("mails the doctor a 6-digit profile code", async () => {
    const { user, token } = await api.createDoctor();
    const res = await generate(token, user.email);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "OTP sent to your email successfully" });
    expect(mailsTo(user.email)).toHaveLength(1);
    expect(mailsTo(user.email)[0].subject).toMatch(/profile access code/);
    expect(api.mailer.lastCodeFor(user.email)).toMatch(/^\d{6}$/);
  });

  it("keeps a live code sent under a minute ago: 200 without sending again (the gate asks on every opening)", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    const again = await generate(token, user.email.toUpperCase());
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ message: "OTP sent to your email successfully" });
    expect(mailsTo(user.email)).toHaveLength(1);
  });

  it("never replaces the code the doctor holds: a wrong try long after the mail, then the gate shown again, keeps it", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    const held = api.mailer.lastCodeFor(user.email)!;
    await ageCode(api, user.id, "profile", { issuedSecondsAgo: 5 * 60 });
    expect((await verify(token, user.id, wrongCode(held))).status).toBe(400);
    // The page with the gate renders again after the wrong try, and asks for a code again.
    expect((await generate(token, user.email)).status).toBe(200);
    expect(mailsTo(user.email)).toHaveLength(1);
    expect((await verify(token, user.id, held)).status).toBe(200);
  });

  it("sends a new code on opening once the last one is expired or dead, and a minute has passed", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    await ageCode(api, user.id, "profile", { issuedSecondsAgo: 11 * 60, expired: true });
    expect((await generate(token, user.email)).status).toBe(200);
    expect(mailsTo(user.email)).toHaveLength(2);
    const second = api.mailer.lastCodeFor(user.email)!;
    for (let i = 0; i < 5; i++) await verify(token, user.id, wrongCode(second));
    await ageCode(api, user.id, "profile", { issuedSecondsAgo: 61 });
    expect((await generate(token, user.email)).status).toBe(200);
    expect(mailsTo(user.email)).toHaveLength(3);
  });

  it("refuses with 429 when the last code (used or dead) was sent under a minute ago", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    expect((await verify(token, user.id, api.mailer.lastCodeFor(user.email))).status).toBe(200);
    const res = await generate(token, user.email);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ message: "Please wait before requesting a new code.", code: "resend_too_soon" });
  });

  it("only for the caller's own e-mail (403), only for doctors (403), only signed in (401)", async () => {
    const doctor = await api.createDoctor();
    const other = await api.createDoctor();
    const patient = await api.createPatient();
    expect((await generate(doctor.token, other.user.email)).status).toBe(403);
    expect(mailsTo(other.user.email)).toHaveLength(0);
    expect((await generate(patient.token, patient.user.email)).status).toBe(403);
    expect((await api.request("POST", "/auth/generateProfileOtp", { body: { email: doctor.user.email } })).status).toBe(
      401,
    );
  });

  it("mails in the doctor's language", async () => {
    const { user, token } = await api.createDoctor();
    await api.db.update(users).set({ locale: "fr" }).where(eq(users.id, user.id));
    await generate(token, user.email);
    expect(mailsTo(user.email)[0].subject).toMatch(/Code d'accès/);
  });

  it("refuses a missing or invalid e-mail with 400", async () => {
    const { token } = await api.createDoctor();
    expect((await generate(token, undefined)).status).toBe(400);
    expect(refusal(await generate(token, "nope")).message).toBe("Please enter a valid email");
  });
});

describe("PUT /auth/resendProfileOtp/{userId}", () => {
  it("sends a new code replacing the old once a minute has passed", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    const old = api.mailer.lastCodeFor(user.email)!;
    await ageCode(api, user.id, "profile", { issuedSecondsAgo: 61 });
    const res = await resend(token, user.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "OTP resent to your email successfully" });
    const fresh = api.mailer.lastCodeFor(user.email)!;
    expect(mailsTo(user.email)).toHaveLength(2);
    if (fresh !== old) expect((await verify(token, user.id, old)).status).toBe(400);
    expect((await verify(token, user.id, fresh)).status).toBe(200);
  });

  it("waits CODE_RESEND_SECONDS when set instead of the minute (the browser tests shorten it)", async () => {
    const short = await startApi({ codeResendSeconds: 5 });
    try {
      const { user, token } = await short.createDoctor();
      const again = () => short.request("PUT", `/auth/resendProfileOtp/${user.id}`, { token });
      expect((await again()).status).toBe(200);
      await ageCode(short, user.id, "profile", { issuedSecondsAgo: 3 });
      expect((await again()).status).toBe(429);
      await ageCode(short, user.id, "profile", { issuedSecondsAgo: 6 });
      expect((await again()).status).toBe(200);
      expect(short.mailer.messages.filter((m) => m.to === user.email)).toHaveLength(2);
    } finally {
      await short.close();
    }
  });

  it("works without an earlier code", async () => {
    const { user, token } = await api.createDoctor();
    expect((await resend(token, user.id)).status).toBe(200);
    expect(mailsTo(user.email)).toHaveLength(1);
  });

  it("refuses a second send within a minute (429 resend_too_soon)", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    const res = await resend(token, user.id);
    expect(res.status).toBe(429);
    expect(refusal(res).code).toBe("resend_too_soon");
    expect(mailsTo(user.email)).toHaveLength(1);
  });

  it("only for the caller's own id (403) and signed in (401)", async () => {
    const doctor = await api.createDoctor();
    const other = await api.createDoctor();
    expect((await resend(doctor.token, other.user.id)).status).toBe(403);
    expect((await resend(doctor.token, "not-a-uuid")).status).toBe(403);
    expect((await api.request("PUT", `/auth/resendProfileOtp/${doctor.user.id}`)).status).toBe(401);
    expect(mailsTo(other.user.email)).toHaveLength(0);
  });
});

describe("PUT /auth/verifyProfileOtp/{userId}", () => {
  it("verifies with the mailed code: message and user", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    const res = await verify(token, user.id, api.mailer.lastCodeFor(user.email));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Profile access verified successfully");
    expect(res.body.user).toMatchObject({
      id: user.id,
      email: user.email,
      userRole: "doctor",
      otpCode: null,
      resetCode: null,
    });
  });

  it("uses a code once", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    const code = api.mailer.lastCodeFor(user.email);
    await verify(token, user.id, code);
    expect((await verify(token, user.id, code)).body).toEqual({
      message: "Invalid verification code",
      code: "invalid_code",
    });
  });

  it("refuses a wrong code with 400 'Invalid verification code'", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    const res = await verify(token, user.id, wrongCode(api.mailer.lastCodeFor(user.email)!));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Invalid verification code", code: "invalid_code" });
  });

  it("refuses an expired code", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    await ageCode(api, user.id, "profile", { expired: true });
    const res = await verify(token, user.id, api.mailer.lastCodeFor(user.email));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Code expired. Please request a new code.", code: "code_expired" });
  });

  it("allows 5 tries per code, then 429", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    const code = api.mailer.lastCodeFor(user.email)!;
    for (let i = 0; i < 4; i++) expect((await verify(token, user.id, wrongCode(code))).status).toBe(400);
    const fifth = await verify(token, user.id, wrongCode(code));
    expect(fifth.status).toBe(429);
    expect(fifth.body).toEqual({ message: "Too many attempts. Please request a new code.", code: "too_many_attempts" });
    expect((await verify(token, user.id, code)).status).toBe(429);
    // A dead code is not 'live': once the minute has passed the gate sends a fresh one.
    await ageCode(api, user.id, "profile", { issuedSecondsAgo: 61 });
    await generate(token, user.email);
    expect((await verify(token, user.id, api.mailer.lastCodeFor(user.email))).status).toBe(200);
  });

  it("refuses a malformed code, another user's id, and no token", async () => {
    const doctor = await api.createDoctor();
    const other = await api.createDoctor();
    await generate(other.token, other.user.email);
    const code = api.mailer.lastCodeFor(other.user.email);
    expect(refusal(await verify(doctor.token, doctor.user.id, "12")).message).toBe(
      "Please enter the complete 6-digit code",
    );
    expect((await verify(doctor.token, other.user.id, code)).status).toBe(403);
    expect(
      (await api.request("PUT", `/auth/verifyProfileOtp/${other.user.id}`, { body: { otpCode: code } })).status,
    ).toBe(401);
    // The other doctor's code was not spent by these attempts.
    const [row] = await api.db
      .select()
      .from(oneTimeCodes)
      .where(and(eq(oneTimeCodes.userId, other.user.id), eq(oneTimeCodes.purpose, "profile")));
    expect(row.attempts).toBe(0);
    expect((await verify(other.token, other.user.id, code)).status).toBe(200);
  });

  it("keeps profile codes apart from verification codes", async () => {
    const { user, token } = await api.createDoctor();
    await generate(token, user.email);
    const code = api.mailer.lastCodeFor(user.email);
    const res = await api.request("PUT", `/auth/verifyUser/${user.id}`, { body: { otpCode: code } });
    expect(res.status).toBe(400);
    expect((await verify(token, user.id, code)).status).toBe(200);
  });
});
