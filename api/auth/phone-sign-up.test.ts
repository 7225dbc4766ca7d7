// Patients with a phone and no e-mail (docs/sms.md, Signing in with a phone): sign-up with the code
// by SMS, sign-in with the number however it is written, reset by SMS, one account per verified
// number, claiming a record the front desk made, and the limits that protect the clinic's SMS bill.
// Against a real SMPP gateway on 127.0.0.1 (api/test/smpp.ts); on PGlite and, with
// TEST_DATABASE_URL, on PostgreSQL.
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAppointment } from "../appointment/test-factories.ts";
import { smsOutbox, users } from "../db/schema.ts";
import { LIMITS } from "../throttle.ts";
import { refusal, startApi, type TestApi } from "../test/harness.ts";
import { codeIn, type SmppServer } from "../test/smpp.ts";
import { startApiWithGateway } from "../test/api-with-gateway.ts";
import { loggedIn, registered, sessionUser } from "../../contract/auth.ts";
import { mailSettings } from "../../contract/settings.ts";
import { wrongCode } from "./test-helpers.ts";

let gateway: SmppServer;
let api: TestApi;

beforeAll(async () => {
  ({ api, gateway } = await startApiWithGateway());
});
afterAll(async () => {
  await api.close();
  await gateway.stop();
});

let numbers = 0;
/** A Cameroonian mobile number of its own (E.164) and the digits as a card shows them (6 77 12 34 56). */
function newNumber() {
  const digits = `677${String(100_000 + ++numbers * 13 + Math.floor(Math.random() * 7)).slice(-6)}`;
  return {
    e164: `+237${digits}`,
    local: digits,
    card: digits.replace(/^(\d)(\d\d)(\d\d)(\d\d)(\d\d)$/, "$1 $2 $3 $4 $5"),
  };
}

let addressCount = 0;
/** A client address of its own, so the per-address limits are tested only where meant. */
const newAddress = () => ({
  "x-forwarded-for": `10.33.${Math.floor(++addressCount / 250)}.${(addressCount % 250) + 1}`,
});

const PASSWORD = "Secret123!";

async function signUp(phone: string, headers = newAddress(), extra: Record<string, unknown> = {}) {
  return api.request("POST", "/auth/register", {
    headers,
    body: { userRole: "patient", username: "Nadège Fouda", phone, password: PASSWORD, ...extra },
  });
}

/** The code of the latest SMS to `e164`, waiting for the `nth` one to arrive. */
async function smsCode(e164: string, nth = 1) {
  const all = await gateway.waitFor(e164, nth);
  return codeIn(all[nth - 1])!;
}

const login = (phone: string, password = PASSWORD, headers = newAddress()) =>
  api.request("POST", "/auth/login", { headers, body: { phone, password, role: "patient" } });

/** Signs up with `n`'s number, proves it with the SMS code, and returns the account's id. */
async function phoneAccount(n = newNumber()) {
  const res = await signUp(n.card);
  expect(res.status).toBe(201);
  const id = (res.body as { id: string }).id;
  const verified = await api.request("PUT", `/auth/verifyUser/${id}`, {
    headers: newAddress(),
    body: { otpCode: await smsCode(n.e164) },
  });
  expect(verified.status).toBe(200);
  return { id, n };
}

/** As if a minute had passed: the number's once-a-minute slot for codes is free again. */
const aMinuteLater = (e164: string) => api.db.execute(sql`delete from rate_limits where key like ${`smsSlot%${e164}`}`);

const usersWith = (phone: string) =>
  api.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phone, phone), sql`${users.deletedAt} is null`));

describe("signing up with a phone and no e-mail", () => {
  it("sends the code by SMS, verifies the phone, turns SMS on, and signs in with the number written four ways", async () => {
    const n = newNumber();
    const res = await signUp(n.card, newAddress(), { email: "" });
    expect(res.status).toBe(201);
    const answer = registered.parse(res.body);
    expect(answer).toMatchObject({ email: null, phone: n.e164 });

    // Before the code: the right password says 'unverified', with the id the code is for.
    const early = await login(n.local);
    expect(early.status).toBe(403);
    expect(early.body).toMatchObject({ code: "unverified", userId: answer.id, email: null });

    const code = await smsCode(n.e164);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await api.request("PUT", `/auth/verifyUser/${answer.id}`, { body: { otpCode: wrongCode(code) } });
    expect(wrong.status).toBe(400);
    expect(refusal(wrong).code).toBe("invalid_code");
    const verified = await api.request("PUT", `/auth/verifyUser/${answer.id}`, {
      answer: sessionUser,
      body: { otpCode: code },
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ id: answer.id, email: null, phone: n.e164, otpVerified: true });

    for (const written of [
      n.card,
      `+237 ${n.local.slice(0, 3)} ${n.local.slice(3, 6)} ${n.local.slice(6)}`,
      n.local,
      n.e164,
    ]) {
      const res = await api.request("POST", "/auth/login", {
        answer: loggedIn,
        headers: newAddress(),
        body: { phone: written, password: PASSWORD, role: "patient" },
      });
      expect(res.status, written).toBe(200);
      expect(res.body.data.id).toBe(answer.id);
    }

    const token = (await login(n.card)).body as { token: { token: string } };
    const settings = await api.request("GET", "/settings", { token: token.token.token, answer: mailSettings });
    // SMS is the only channel of an account without an e-mail: on from the start.
    expect(settings.body).toMatchObject({ phone: n.e164, phoneVerified: true, sms: true });
  });

  it("answers a wrong password and an unknown phone alike, in content and in time", async () => {
    const { n } = await phoneAccount();
    const wrong = await login(n.card, "Wrong-password1");
    const unknown = await login(newNumber().card, "Wrong-password1");
    expect(wrong.status).toBe(401);
    expect(unknown).toEqual(wrong);

    // Each a few times from an address of its own: the median time of an unknown phone is not far
    // below a known one's (it hashes a stand-in password; without it, it would answer at once).
    const median = async (phone: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await login(phone, "Wrong-password1");
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[2];
    };
    const known = await median(n.card);
    const stranger = await median(newNumber().card);
    expect(stranger).toBeGreaterThan(known * 0.5);
  });

  it("refuses a number outside SMS_COUNTRIES with 400 before anything is sent", async () => {
    const before = await api.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(smsOutbox);
    const res = await signUp("+33 6 12 34 56 78");
    expect(res.status).toBe(400);
    expect(refusal(res).code).toBe("phone_country_unsupported");
    const forgot = await api.request("POST", "/auth/forgot-password", {
      headers: newAddress(),
      body: { phone: "+33 6 12 34 56 78" },
    });
    expect(refusal(forgot).code).toBe("phone_country_unsupported");
    const after = await api.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(smsOutbox);
    expect(after[0].n).toBe(before[0].n);
    expect(await usersWith("+33612345678")).toEqual([]);
  });

  it("still mails the code when the patient gives an e-mail, and leaves the phone a contact number", async () => {
    const n = newNumber();
    const email = api.unique("both");
    const res = await signUp(n.card, newAddress(), { email });
    expect(res.status).toBe(201);
    expect(registered.parse(res.body)).toMatchObject({ email, phone: null });
    expect(api.mailer.lastCodeFor(email)).toMatch(/^\d{6}$/);
    const [row] = await api.db.select().from(users).where(eq(users.email, email));
    expect(row.phoneVerified).toBe(false);
  });
});

describe("one account per phone", () => {
  it("answers a second sign-up as a first, creates and changes nothing, and texts the owner", async () => {
    const { id, n } = await phoneAccount();
    const first = await signUp(newNumber().card);
    await aMinuteLater(n.e164);
    const second = await signUp(n.local, newAddress(), { password: "Another-pass9" });
    expect(second.status).toBe(first.status);
    expect(Object.keys(second.body as object).sort()).toEqual(Object.keys(first.body as object).sort());
    expect(second.body).toMatchObject({ email: null, phone: n.e164 });
    expect((second.body as { id: string }).id).not.toBe(id);
    expect(await usersWith(n.e164)).toEqual([{ id }]);
    // The owner's password is unchanged, the newcomer's does nothing.
    expect((await login(n.card)).status).toBe(200);
    expect((await login(n.card, "Another-pass9")).status).toBe(401);
    const [, alert] = await gateway.waitFor(n.e164, 2);
    expect(alert.text).toMatch(/someone tried to sign up with your number/);
    expect(codeIn(alert)).toBeUndefined();
  });

  it("does not count an e-mail account's unverified contact number, and refuses verifying a number another holds (409)", async () => {
    const n = newNumber();
    // Two e-mail accounts with the same contact number, as the existing data has.
    const a = await api.createPatient({ phone: n.e164 });
    await api.createPatient({ phone: n.e164 });
    const { id } = await phoneAccount(n);
    expect(id).not.toBe(a.user.id);

    // The e-mail account asks for a code for the number the phone-only patient now holds.
    const asked = await api.request("POST", "/settings/phone/code", { token: a.token, headers: newAddress() });
    expect(asked.status).toBe(200);
    const [, sms] = await gateway.waitFor(n.e164, 2);
    const verify = await api.request("POST", "/settings/phone/verify", {
      token: a.token,
      headers: newAddress(),
      body: { otpCode: codeIn(sms) },
    });
    expect(verify.status).toBe(409);
    expect(refusal(verify).code).toBe("phone_taken");
  });

  it("lets only the first of two sign-ups with one number verify it", async () => {
    const n = newNumber();
    const one = await signUp(n.card);
    await aMinuteLater(n.e164);
    const two = await signUp(n.local);
    const [codeOne, codeTwo] = [await smsCode(n.e164, 1), await smsCode(n.e164, 2)];
    const ids = [(one.body as { id: string }).id, (two.body as { id: string }).id];
    expect((await api.request("PUT", `/auth/verifyUser/${ids[1]}`, { body: { otpCode: codeTwo } })).status).toBe(200);
    const late = await api.request("PUT", `/auth/verifyUser/${ids[0]}`, { body: { otpCode: codeOne } });
    expect(late.status).toBe(409);
    expect(refusal(late).code).toBe("phone_taken");
  });
});

describe("resetting the password by SMS", () => {
  it("texts a reset code to the number, which sets a new password; an unknown number answers alike", async () => {
    const { n } = await phoneAccount();
    await aMinuteLater(n.e164);
    const known = await api.request("POST", "/auth/forgot-password", {
      headers: newAddress(),
      body: { phone: n.card },
    });
    const unknown = await api.request("POST", "/auth/forgot-password", {
      headers: newAddress(),
      body: { phone: newNumber().card },
    });
    expect(known.status).toBe(200);
    expect(unknown).toEqual(known);
    const code = await smsCode(n.e164, 2);

    const stranger = await api.request("POST", "/auth/reset-password", {
      headers: newAddress(),
      body: { phone: newNumber().local, code, password: "New-pass-123" },
    });
    const wrong = await api.request("POST", "/auth/reset-password", {
      headers: newAddress(),
      body: { phone: n.local, code: wrongCode(code), password: "New-pass-123" },
    });
    expect(stranger).toEqual(wrong);
    expect(refusal(wrong).code).toBe("invalid_code");

    const reset = await api.request("POST", "/auth/reset-password", {
      headers: newAddress(),
      body: { phone: `+237 ${n.local}`, code, password: "New-pass-123" },
    });
    expect(reset.status).toBe(200);
    expect((await login(n.card)).status).toBe(401);
    expect((await login(n.card, "New-pass-123")).status).toBe(200);
  });
});

describe("claiming a record made at the front desk", () => {
  async function deskRecord(n: ReturnType<typeof newNumber>, dateOfBirth?: string) {
    const doctor = await api.createDoctor();
    const desk = await api.createReceptionist([doctor.user.id]);
    const made = await api.request("POST", "/reception/patients", {
      token: desk.token,
      body: { username: "Paul Mbarga", phone: n.card, dateOfBirth, language: "fr" },
    });
    expect(made.status).toBe(201);
    const recordId = (made.body as { id: string }).id;
    const appointment = await insertAppointment(api.db, {
      patientId: recordId,
      doctorId: doctor.user.id,
      status: "confirmed",
      startsAt: new Date(Date.now() + 3 * 86_400_000),
    });
    return { recordId, appointment };
  }

  it("turns the record into the account: same id, its appointments, no second record", async () => {
    const n = newNumber();
    const { recordId, appointment } = await deskRecord(n);
    // The desk record's number: its password is nobody's yet.
    expect((await login(n.card)).status).toBe(401);
    const res = await signUp(n.local);
    expect(res.status).toBe(201);
    const signUpId = (res.body as { id: string }).id;
    const verified = await api.request("PUT", `/auth/verifyUser/${signUpId}`, {
      answer: sessionUser,
      body: { otpCode: await smsCode(n.e164) },
    });
    expect(verified.status).toBe(200);
    expect(verified.body.id).toBe(recordId);
    expect(await usersWith(n.e164)).toEqual([{ id: recordId }]);

    const signedIn = await login(n.card);
    expect(signedIn.status).toBe(200);
    const token = (signedIn.body as { token: { token: string } }).token.token;
    const list = await api.request("GET", "/appointment?assigned=true", { token });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain(appointment.id);
  });

  it("asks for the date of birth the desk recorded; 5 wrong ones lock the claim", async () => {
    const n = newNumber();
    const { recordId } = await deskRecord(n, "1990-04-12");
    const res = await signUp(n.card);
    const signUpId = (res.body as { id: string }).id;
    const code = await smsCode(n.e164);
    const verify = (body: Record<string, unknown>) =>
      api.request("PUT", `/auth/verifyUser/${signUpId}`, { headers: newAddress(), body: { otpCode: code, ...body } });

    const missing = await verify({});
    expect(missing.status).toBe(400);
    expect(refusal(missing).code).toBe("date_of_birth_required");
    const mismatch = await verify({ dateOfBirth: "1990-04-13" });
    expect(refusal(mismatch).code).toBe("date_of_birth_mismatch");
    // The right one, with the same code (a wrong date did not use it up).
    const right = await verify({ dateOfBirth: "1990-04-12" });
    expect(right.status).toBe(200);
    expect((right.body as { id: string }).id).toBe(recordId);

    const m = newNumber();
    await deskRecord(m, "1985-01-30");
    const other = await signUp(m.card);
    const otherId = (other.body as { id: string }).id;
    const otherCode = await smsCode(m.e164);
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const tried = await api.request("PUT", `/auth/verifyUser/${otherId}`, {
        headers: newAddress(),
        body: { otpCode: otherCode, dateOfBirth: `1985-01-0${i + 1}` },
      });
      codes.push(refusal(tried).code);
    }
    expect(codes).toEqual([
      "date_of_birth_mismatch",
      "date_of_birth_mismatch",
      "date_of_birth_mismatch",
      "date_of_birth_mismatch",
      "claim_locked",
      "claim_locked",
    ]);
    const locked = await api.request("PUT", `/auth/verifyUser/${otherId}`, {
      headers: newAddress(),
      body: { otpCode: otherCode, dateOfBirth: "1985-01-30" },
    });
    expect(refusal(locked).code).toBe("claim_locked");
  });

  it("sends no reset code to a record nobody claimed (a reset would skip the date of birth)", async () => {
    const n = newNumber();
    await deskRecord(n, "1970-07-07");
    const res = await api.request("POST", "/auth/forgot-password", { headers: newAddress(), body: { phone: n.card } });
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(gateway.received.filter((m) => m.to === n.e164.slice(1))).toEqual([]);
  });
});

describe("the limits on codes by SMS", () => {
  it("sends at most one code per number per minute", async () => {
    const n = newNumber();
    expect((await signUp(n.card)).status).toBe(201);
    const again = await api.request("POST", "/auth/resendVerification", {
      headers: newAddress(),
      body: { phone: n.card },
    });
    expect(again.status).toBe(429);
    expect(refusal(again).code).toBe("resend_too_soon");
    // A number nobody uses answers the same way within its minute.
    const m = newNumber();
    await api.request("POST", "/auth/forgot-password", { headers: newAddress(), body: { phone: m.card } });
    const stranger = await api.request("POST", "/auth/resendVerification", {
      headers: newAddress(),
      body: { phone: m.card },
    });
    expect(stranger.status).toBe(429);
    expect(refusal(stranger).code).toBe("resend_too_soon");
  });

  it(`stops a number after ${LIMITS.smsCodeNumber.points} codes in an hour, and an address after ${LIMITS.smsCodeAddress.points}`, async () => {
    const n = newNumber();
    const statuses: number[] = [];
    for (let i = 0; i <= LIMITS.smsCodeNumber.points; i++) {
      await aMinuteLater(n.e164);
      const res = await api.request("POST", "/auth/forgot-password", {
        headers: newAddress(),
        body: { phone: n.card },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([...Array(LIMITS.smsCodeNumber.points).fill(200), 429]);

    const from = newAddress();
    const fromOne: number[] = [];
    for (let i = 0; i <= LIMITS.smsCodeAddress.points; i++) {
      fromOne.push((await signUp(newNumber().card, from)).status);
    }
    expect(fromOne).toEqual([...Array(LIMITS.smsCodeAddress.points).fill(201), 429]);
  });
});

describe("adding an e-mail to a phone-only account", () => {
  it("mails a code to the address, which adds it; the patient then also signs in with it", async () => {
    const { id, n } = await phoneAccount();
    const token = ((await login(n.card)).body as { token: { token: string } }).token.token;
    const before = await api.request("GET", "/settings", { token, answer: mailSettings });
    expect(before.body.email).toBeNull();

    const email = api.unique("added");
    const asked = await api.request("POST", "/settings/email/code", { token, headers: newAddress(), body: { email } });
    expect(asked.status).toBe(200);
    const code = api.mailer.lastCodeFor(email)!;
    const wrong = await api.request("POST", "/settings/email/verify", {
      token,
      headers: newAddress(),
      body: { email, otpCode: wrongCode(code) },
    });
    expect(refusal(wrong).code).toBe("invalid_code");
    // The code proves this address only.
    const other = await api.request("POST", "/settings/email/verify", {
      token,
      headers: newAddress(),
      body: { email: api.unique("other"), otpCode: code },
    });
    expect(refusal(other).code).toBe("invalid_code");
    const added = await api.request("POST", "/settings/email/verify", {
      token,
      headers: newAddress(),
      body: { email, otpCode: code },
      answer: mailSettings,
    });
    expect(added.status).toBe(200);
    expect(added.body.email).toBe(email);
    const byMail = await api.request("POST", "/auth/login", {
      answer: loggedIn,
      headers: newAddress(),
      body: { email, password: PASSWORD, role: "patient" },
    });
    expect(byMail.body.data.id).toBe(id);
    const again = await api.request("POST", "/settings/email/code", {
      token,
      headers: newAddress(),
      body: { email: api.unique("third") },
    });
    expect(refusal(again).code).toBe("email_taken");
  });

  it("refuses, once the code is right, an address another account has", async () => {
    const { n } = await phoneAccount();
    const someone = await api.createPatient();
    const token = ((await login(n.card)).body as { token: { token: string } }).token.token;
    await api.request("POST", "/settings/email/code", {
      token,
      headers: newAddress(),
      body: { email: someone.user.email },
    });
    const code = api.mailer.lastCodeFor(someone.user.email!)!;
    const taken = await api.request("POST", "/settings/email/verify", {
      token,
      headers: newAddress(),
      body: { email: someone.user.email, otpCode: code },
    });
    expect(taken.status).toBe(409);
    expect(refusal(taken).code).toBe("email_taken");
  });
});

describe("a server without text messages", () => {
  let bare: TestApi;
  beforeAll(async () => {
    bare = await startApi({ smsAvailable: false });
  });
  afterAll(() => bare.close());

  it("refuses a sign-up by phone with sms_unavailable, and still takes one with an e-mail", async () => {
    const res = await bare.request("POST", "/auth/register", {
      body: { userRole: "patient", username: "Nadège Fouda", phone: newNumber().card, password: PASSWORD },
    });
    expect(res.status).toBe(409);
    expect(refusal(res).code).toBe("sms_unavailable");
    const withMail = await bare.request("POST", "/auth/register", {
      body: {
        userRole: "patient",
        username: "Nadège Fouda",
        email: bare.unique("mail"),
        phone: newNumber().card,
        password: PASSWORD,
      },
    });
    expect(withMail.status).toBe(201);
  });
});
