import { beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { type TestApi, refusal, setUpApi } from "../test/harness.ts";
import { doctors, oneTimeCodes, patients, rateLimits, users } from "../db/schema.ts";
import { ageCode, doctorPayload, patientPayload, registerPatient, wrongCode } from "./test-helpers.ts";
import { notice, registered } from "../../contract/auth.ts";
import { apiError } from "../../contract/errors.ts";

const api = setUpApi();

const register = (body: unknown, headers?: Record<string, string>) =>
  api.request("POST", "/auth/register", { answer: registered, body, headers });
const mailsTo = (email: string) => api.mailer.messages.filter((m) => m.to.toLowerCase() === email.toLowerCase());

describe("POST /auth/register", () => {
  it("registers a patient: 201 {id, email}, users + patients rows, unverified, a 6-digit code by mail", async () => {
    const payload = patientPayload(api);
    const res = await register(payload);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["email", "id", "phone"]);
    expect(res.body.email).toBe(payload.email);
    const [user] = await api.db.select().from(users).where(eq(users.id, res.body.id));
    expect(user).toMatchObject({
      role: "patient",
      username: "Amina Nguema",
      phone: "+237670000001",
      otpVerified: false,
      locale: "en",
    });
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await api.db.select().from(patients).where(eq(patients.userId, user.id))).toHaveLength(1);
    const mails = mailsTo(payload.email);
    expect(mails).toHaveLength(1);
    const code = api.mailer.lastCodeFor(payload.email)!;
    expect(code).toMatch(/^\d{6}$/);
    expect(mails[0].html).toContain(code);
    // Stored hashed, never in clear.
    const [row] = await api.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, user.id));
    expect(row.purpose).toBe("verify");
    expect(row.codeHash).not.toContain(code);
    expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("registers a doctor awaiting verification, with serial number and contact", async () => {
    const payload = doctorPayload(api);
    const res = await register(payload);
    expect(res.status).toBe(201);
    const [doctor] = await api.db.select().from(doctors).where(eq(doctors.userId, res.body.id));
    expect(doctor).toMatchObject({
      verification: "pending",
      serialNumber: payload.serial_number,
      contact: "+237699001122",
    });
    const [user] = await api.db.select().from(users).where(eq(users.id, res.body.id));
    expect(user.role).toBe("doctor");
    expect(api.mailer.lastCodeFor(payload.email)).toMatch(/^\d{6}$/);
  });

  it("takes phone numbers as people write them and stores them in E.164", async () => {
    for (const [phone, stored] of [
      ["+237 670 000 001", "+237670000001"],
      ["670000001", "+237670000001"],
      ["6.70.00.00.01", "+237670000001"],
      ["(+237) 670-000-001", "+237670000001"],
      ["  +33 6 12 34 56 78 ", "+33612345678"],
    ]) {
      const res = await register(patientPayload(api, { phone }));
      expect(res.status, phone).toBe(201);
      const [user] = await api.db.select().from(users).where(eq(users.id, res.body.id));
      expect(user.phone, phone).toBe(stored);
    }
    const doctor = await register(doctorPayload(api, { contact: "+237 650 11 22 33" }));
    const [row] = await api.db.select().from(doctors).where(eq(doctors.userId, doctor.body.id));
    expect(row.contact).toBe("+237650112233");
  });

  it("stores the e-mail in lower case and answers it so", async () => {
    const payload = patientPayload(api);
    const res = await register({ ...payload, email: `  ${payload.email.toUpperCase()} ` });
    expect(res.status).toBe(201);
    expect(res.body.email).toBe(payload.email);
  });

  it("mails in French when asked by the locale field or by Accept-Language", async () => {
    const byField = patientPayload(api, { locale: "fr" });
    await register(byField);
    expect(mailsTo(byField.email)[0].subject).toMatch(/code de vérification/);
    const [user] = await api.db.select().from(users).where(sql`${users.email} = ${byField.email}`);
    expect(user.locale).toBe("fr");

    const byHeader = patientPayload(api);
    await register(byHeader, { "accept-language": "fr-CM,fr;q=0.9,en;q=0.5" });
    expect(mailsTo(byHeader.email)[0].text).toMatch(/Bonjour/);

    const english = patientPayload(api, { locale: "de" });
    await register(english, { "accept-language": "de-DE, en;q=0.4" });
    expect(mailsTo(english.email)[0].text).toMatch(/^Hello/);
  });

  describe("refuses invalid payloads by the validation rules (400, nothing created)", () => {
    const cases: [string, (api: TestApi) => Record<string, unknown>, string][] = [
      ["an unknown role", (a) => patientPayload(a, { userRole: "admin" }), "Invalid role provided"],
      ["a missing role", (a) => patientPayload(a, { userRole: undefined }), "Invalid role provided"],
      ["a missing username", (a) => patientPayload(a, { username: undefined }), "Username is required"],
      ["a short username", (a) => patientPayload(a, { username: "Al" }), "Username must be at least 3 characters"],
      ["a blank username", (a) => patientPayload(a, { username: "   " }), "Username is required"],
      // A patient without an e-mail signs up by phone (api/auth/phone-sign-up.test.ts); a doctor needs one.
      ["a doctor's missing email", (a) => doctorPayload(a, { email: undefined }), "Email is required"],
      ["an invalid email", (a) => patientPayload(a, { email: "not-an-email" }), "Please enter a valid email"],
      ["a missing phone", (a) => patientPayload(a, { phone: undefined }), "Phone is required"],
      ["a phone with letters", (a) => patientPayload(a, { phone: "6701abc01" }), "Please enter a valid phone number"],
      ["a phone one digit short", (a) => patientPayload(a, { phone: "67000000" }), "Please enter a valid phone number"],
      [
        "a phone one digit too many",
        (a) => patientPayload(a, { phone: "6700000010" }),
        "Please enter a valid phone number",
      ],
      [
        "a number of no country",
        (a) => patientPayload(a, { phone: "+999 670 000 001" }),
        "Please enter a valid phone number",
      ],
      [
        "a phone of 31 characters",
        (a) => patientPayload(a, { phone: "6".repeat(31) }),
        "Please enter a valid phone number",
      ],
      ["a missing password", (a) => patientPayload(a, { password: undefined }), "Password is required"],
      ["a short password", (a) => patientPayload(a, { password: "12345" }), "Password must be at least 6 characters"],
      ["a short doctor name", (a) => doctorPayload(a, { username: "Dr" }), "Doctor name must be at least 3 characters"],
      ["a missing contact", (a) => doctorPayload(a, { contact: undefined }), "Contact is required"],
      ["a contact with letters", (a) => doctorPayload(a, { contact: "call me" }), "Invalid contact format"],
      ["a contact with a plus inside", (a) => doctorPayload(a, { contact: "237+600" }), "Invalid contact format"],
      ["a missing serial number", (a) => doctorPayload(a, { serial_number: undefined }), "Serial number is required"],
      [
        "a short serial number",
        (a) => doctorPayload(a, { serial_number: "AB" }),
        "Serial number must be at least 3 characters",
      ],
      [
        "a short doctor password",
        (a) => doctorPayload(a, { password: "abc" }),
        "Password must be at least 6 characters",
      ],
    ];
    it.each(cases)("%s", async (_name, build, message) => {
      const payload = build(api);
      const before = api.mailer.messages.length;
      const res = await register(payload);
      expect(res.status).toBe(400);
      expect(refusal(res).message).toBe(message);
      expect(refusal(res).code).toMatch(/^invalid/);
      expect(api.mailer.messages.length).toBe(before);
      if (typeof payload.email === "string") {
        expect(
          await api.db.select().from(users).where(sql`lower(${users.email}) = ${payload.email.toLowerCase()}`),
        ).toHaveLength(0);
      }
    });

    it("answers a body that is not JSON with 400", async () => {
      const res = await fetch(`${api.url}/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{nope",
      });
      expect(res.status).toBe(400);
      expect(apiError.parse(await res.json()).message).toBe("Invalid JSON");
    });
  });

  describe("an address that already has an account (no enumeration)", () => {
    it("answers the same 201 shape with a random id, creates nothing, and mails the owner a notice, not a code", async () => {
      const first = await registerPatient(api);
      const count = async () => (await api.db.select({ n: sql<number>`count(*)::int` }).from(users))[0].n;
      const usersBefore = await count();
      const mailsBefore = mailsTo(first.email).length;
      const again = await register(doctorPayload(api, { email: first.email.toUpperCase() }));
      expect(again.status).toBe(201);
      expect(Object.keys(again.body).sort()).toEqual(["email", "id", "phone"]);
      expect(again.body.email).toBe(first.email);
      expect(again.body.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(again.body.id).not.toBe(first.id);
      expect(await count()).toBe(usersBefore);
      const notices = mailsTo(first.email).slice(mailsBefore);
      expect(notices).toHaveLength(1);
      expect(notices[0].subject).toMatch(/tried to register/);
      expect(notices[0].text).not.toMatch(/\b\d{6}\b/);
      // The original account is untouched: its password still works once verified.
      await api.request("PUT", `/auth/verifyUser/${first.id}`, { body: { otpCode: first.code } });
      const login = await api.request("POST", "/auth/login", {
        body: { email: first.email, password: first.password, role: "patient" },
      });
      expect(login.status).toBe(200);
    });

    it("mails the notice in the owner's language, at most once a minute", async () => {
      const owner = await registerPatient(api, { locale: "fr" });
      await api.db.delete(rateLimits);
      await register(patientPayload(api, { email: owner.email }));
      await register(patientPayload(api, { email: owner.email }));
      const notices = mailsTo(owner.email).slice(1);
      expect(notices).toHaveLength(1);
      expect(notices[0].subject).toMatch(/Tentative d'inscription/);
    });

    it("answers a new and an existing address identically apart from the id", async () => {
      const existing = await registerPatient(api);
      const fresh = patientPayload(api);
      const a = await register(patientPayload(api, { email: existing.email }));
      const b = await register(fresh);
      expect(a.status).toBe(b.status);
      expect(Object.keys(a.body).sort()).toEqual(Object.keys(b.body).sort());
      // A follow-up resend is refused alike (the per-address minute is claimed either way).
      const ra = await api.request("POST", "/auth/resendVerification", { body: { email: existing.email } });
      const rb = await api.request("POST", "/auth/resendVerification", { body: { email: fresh.email } });
      expect([ra.status, ra.body]).toEqual([rb.status, rb.body]);
    });

    it("two concurrent registrations of one address create one account", async () => {
      const payload = patientPayload(api);
      const answers = await Promise.all([
        register(payload),
        register({ ...payload, email: payload.email.toUpperCase() }),
        register(payload),
      ]);
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
      const rows = await api.db.select().from(users).where(sql`lower(${users.email}) = ${payload.email}`);
      expect(rows).toHaveLength(1);
    });
  });
});

describe("PUT /auth/verifyUser/{id}", () => {
  const verify = (id: string, otpCode: unknown) => api.request("PUT", `/auth/verifyUser/${id}`, { body: { otpCode } });

  it("verifies with the mailed code and answers the user object without codes", async () => {
    const r = await registerPatient(api);
    const res = await verify(r.id, r.code);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: r.id,
      email: r.email,
      username: "Amina Nguema",
      phone: "+237670000001",
      otpVerified: true,
      userRole: "patient",
      otpCode: null,
      resetCode: null,
    });
    for (const key of [
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
    ]) {
      expect(res.body).toHaveProperty(key);
    }
    expect(JSON.stringify(res.body)).not.toContain(r.code);
    const [user] = await api.db.select().from(users).where(eq(users.id, r.id));
    expect(user.otpVerified).toBe(true);
  });

  it("uses a code once", async () => {
    const r = await registerPatient(api);
    expect((await verify(r.id, r.code)).status).toBe(200);
    const again = await verify(r.id, r.code);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: "Invalid code. Please try again.", code: "invalid_code" });
  });

  it("refuses a wrong code", async () => {
    const r = await registerPatient(api);
    const res = await verify(r.id, wrongCode(r.code));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Invalid code. Please try again.", code: "invalid_code" });
    const [user] = await api.db.select().from(users).where(eq(users.id, r.id));
    expect(user.otpVerified).toBe(false);
  });

  it("answers an unknown or malformed id like a wrong code", async () => {
    const unknown = await verify("00000000-0000-4000-8000-000000000000", "123456");
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ message: "Invalid code. Please try again.", code: "invalid_code" });
    const malformed = await verify("42", "123456");
    expect(malformed.body).toEqual(unknown.body);
  });

  it.each([["12345"], ["1234567"], ["12a456"], [""], [123456], [null]])(
    "refuses a malformed code %j without counting a try",
    async (otpCode) => {
      const r = await registerPatient(api);
      const res = await verify(r.id, otpCode);
      expect(res.status).toBe(400);
      expect(refusal(res).message).toBe("Please enter the complete 6-digit code");
      const [row] = await api.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, r.id));
      expect(row.attempts).toBe(0);
    },
  );

  it("refuses an expired code, even the right one", async () => {
    const r = await registerPatient(api);
    await ageCode(api, r.id, "verify", { expired: true });
    const res = await verify(r.id, r.code);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Code expired. Please request a new code.", code: "code_expired" });
  });

  it("kills the code after 5 wrong tries: 429, and the right code no longer works", async () => {
    const r = await registerPatient(api);
    const wrong = wrongCode(r.code);
    for (let i = 1; i <= 4; i++) expect(refusal(await verify(r.id, wrong)).code).toBe("invalid_code");
    const fifth = await verify(r.id, wrong);
    expect(fifth.status).toBe(429);
    expect(fifth.body).toEqual({ message: "Too many attempts. Please request a new code.", code: "too_many_attempts" });
    const right = await verify(r.id, r.code);
    expect(right.status).toBe(429);
    expect(refusal(right).code).toBe("too_many_attempts");
  });

  it("lets only one of concurrent right submissions through", async () => {
    const r = await registerPatient(api);
    const answers = await Promise.all([verify(r.id, r.code), verify(r.id, r.code), verify(r.id, r.code)]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
  });
});

describe("POST /auth/resendVerification", () => {
  const resend = (email: unknown) =>
    api.request("POST", "/auth/resendVerification", { answer: notice, body: { email } });
  beforeEach(async () => {
    await api.db.delete(rateLimits);
  });

  it("replaces the code once the minute has passed; the old code stops working", async () => {
    const r = await registerPatient(api);
    await api.db.delete(rateLimits);
    await ageCode(api, r.id, "verify", { issuedSecondsAgo: 61 });
    const res = await resend(r.email);
    expect(res.status).toBe(200);
    expect(res.body.message).toBeTruthy();
    const fresh = api.mailer.lastCodeFor(r.email)!;
    expect(mailsTo(r.email)).toHaveLength(2);
    if (fresh !== r.code) {
      const old = await api.request("PUT", `/auth/verifyUser/${r.id}`, { body: { otpCode: r.code } });
      expect(refusal(old).code).toBe("invalid_code");
    }
    const ok = await api.request("PUT", `/auth/verifyUser/${r.id}`, { body: { otpCode: fresh } });
    expect(ok.status).toBe(200);
  });

  it("a new code resets the tries of the old one", async () => {
    const r = await registerPatient(api);
    for (let i = 0; i < 5; i++)
      await api.request("PUT", `/auth/verifyUser/${r.id}`, { body: { otpCode: wrongCode(r.code) } });
    await api.db.delete(rateLimits);
    await ageCode(api, r.id, "verify", { issuedSecondsAgo: 61 });
    await resend(r.email);
    const ok = await api.request("PUT", `/auth/verifyUser/${r.id}`, {
      body: { otpCode: api.mailer.lastCodeFor(r.email) },
    });
    expect(ok.status).toBe(200);
  });

  it("refuses a second resend within a minute with 429 resend_too_soon", async () => {
    const r = await registerPatient(api);
    const first = await resend(r.email);
    expect(first.status).toBe(429);
    expect(first.body).toEqual({ message: "Please wait before requesting a new code.", code: "resend_too_soon" });
    expect(mailsTo(r.email)).toHaveLength(1);
  });

  it("answers the same for an unknown, a verified and an unverified address, mailing only the unverified one", async () => {
    const unverified = await registerPatient(api);
    const verified = await registerPatient(api);
    await api.request("PUT", `/auth/verifyUser/${verified.id}`, { body: { otpCode: verified.code } });
    await api.db.delete(rateLimits);
    await ageCode(api, unverified.id, "verify", { issuedSecondsAgo: 61 });
    const answers = await Promise.all([resend(unverified.email), resend(verified.email), resend(api.unique("nobody"))]);
    expect(new Set(answers.map((a) => JSON.stringify([a.status, a.body]))).size).toBe(1);
    expect(answers[0].status).toBe(200);
    expect(mailsTo(unverified.email)).toHaveLength(2);
    expect(mailsTo(verified.email)).toHaveLength(1);
    // And a second call within the minute is refused alike.
    const again = await Promise.all([resend(unverified.email), resend(verified.email)]);
    expect(again.map((a) => a.status)).toEqual([429, 429]);
  });

  it("refuses an invalid e-mail with 400", async () => {
    expect((await resend("nope")).status).toBe(400);
    expect(refusal(await resend(undefined)).message).toBe("Email is required");
  });
});
