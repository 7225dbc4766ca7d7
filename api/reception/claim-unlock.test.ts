// The desk's help for a locked claim (docs/product.md, The front desk; docs/sms.md, Claiming a desk
// record): 5 wrong dates of birth lock the claim of a desk record, and only a receptionist, having
// checked the person's identity in person, unlocks it with POST /reception/patients/{id}/claim-unlock.
// Against a real SMPP gateway on 127.0.0.1 (api/test/smpp.ts); on PGlite and, with
// TEST_DATABASE_URL, on PostgreSQL.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionUser } from "../../contract/auth.ts";
import { deskPatient, deskPatientList } from "../../contract/reception.ts";
import { insertAppointment } from "../appointment/test-factories.ts";
import { auditEvents, users } from "../db/schema.ts";
import { refusal, type TestApi, type TestReceptionist } from "../test/harness.ts";
import { codeIn, type SmppServer } from "../test/smpp.ts";
import { startApiWithGateway } from "../test/api-with-gateway.ts";

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
/** A Cameroonian mobile number of its own: E.164, and the digits as a card shows them (6 78 12 34 56). */
function newNumber() {
  const digits = `678${String(100_000 + ++numbers * 17 + Math.floor(Math.random() * 11)).slice(-6)}`;
  return { e164: `+237${digits}`, card: digits.replace(/^(\d)(\d\d)(\d\d)(\d\d)(\d\d)$/, "$1 $2 $3 $4 $5") };
}

let addresses = 0;
/** A client address of its own, so the per-address limits stay out of the way. */
const newAddress = () => ({ "x-forwarded-for": `10.44.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}` });

const PASSWORD = "Secret123!";
const BORN = "1979-03-21";

const unlock = (who: { token: string }, id: string) =>
  api.request("POST", `/reception/patients/${id}/claim-unlock`, { token: who.token });

/** A desk record with a date of birth, and an appointment with the doctor the desk serves. */
async function lockedCandidate() {
  const doctor = await api.createDoctor();
  const desk = await api.createReceptionist([doctor.user.id]);
  const n = newNumber();
  const made = await api.request("POST", "/reception/patients", {
    token: desk.token,
    answer: deskPatient,
    body: { username: "Marie Atangana", phone: n.card, dateOfBirth: BORN, language: "fr" },
  });
  expect(made.status).toBe(201);
  expect(made.body.claimLocked).toBe(false);
  const appointment = await insertAppointment(api.db, {
    patientId: made.body.id,
    doctorId: doctor.user.id,
    status: "confirmed",
    startsAt: new Date(Date.now() + 4 * 86_400_000),
  });
  return { doctor, desk, n, recordId: made.body.id, appointment };
}

/** Signs up with the record's number and returns a verify call with its SMS code. */
async function claimant(n: ReturnType<typeof newNumber>) {
  const res = await api.request("POST", "/auth/register", {
    headers: newAddress(),
    body: { userRole: "patient", username: "Marie Atangana", phone: n.card, password: PASSWORD },
  });
  expect(res.status).toBe(201);
  const signUpId = (res.body as { id: string }).id;
  const [sms] = await gateway.waitFor(n.e164);
  const code = codeIn(sms)!;
  const verify = (dateOfBirth: string) =>
    api.request("PUT", `/auth/verifyUser/${signUpId}`, {
      headers: newAddress(),
      body: { otpCode: code, dateOfBirth },
    });
  return { signUpId, verify };
}

/** Five wrong dates of birth: the claim is locked. */
async function lockClaim(verify: (dateOfBirth: string) => ReturnType<typeof api.request>) {
  const codes: string[] = [];
  for (let i = 1; i <= 5; i++) codes.push(refusal(await verify(`1979-03-0${i}`)).code);
  expect(codes.at(-1)).toBe("claim_locked");
  expect(refusal(await verify(BORN)).code).toBe("claim_locked");
}

const open = async (desk: TestReceptionist, id: string) => {
  const res = await api.request("GET", `/reception/patients/${id}`, { token: desk.token, answer: deskPatient });
  expect(res.status).toBe(200);
  return res.body;
};

describe("the desk unlocking a claim five wrong dates of birth locked", () => {
  it("says the claim is locked, unlocks it, and the right date then claims the record", async () => {
    const { desk, n, recordId, appointment } = await lockedCandidate();
    const { verify } = await claimant(n);
    await lockClaim(verify);

    // The desk's answers say so: the record opened, and the search by phone.
    expect((await open(desk, recordId)).claimLocked).toBe(true);
    const found = await api.request("GET", `/reception/patients?phone=${encodeURIComponent(n.card)}`, {
      token: desk.token,
      answer: deskPatientList,
    });
    expect(found.body.patients.map((p) => [p.id, p.claimLocked])).toEqual([[recordId, true]]);

    const res = await api.request("POST", `/reception/patients/${recordId}/claim-unlock`, {
      token: desk.token,
      answer: deskPatient,
    });
    expect(res.status).toBe(200);
    expect([res.body.id, res.body.claimLocked]).toEqual([recordId, false]);
    const [row] = await api.db.select({ attempts: users.claimAttempts }).from(users).where(eq(users.id, recordId));
    expect(row.attempts).toBe(0);
    // In the patient's 'Who saw my data', with the receptionist's name.
    const audited = await api.db
      .select({ actor: auditEvents.actorId })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.subjectUserId, recordId), eq(auditEvents.action, "update"), eq(auditEvents.entity, "claim")),
      );
    expect(audited).toEqual([{ actor: desk.user.id }]);

    // The same code, now with the right date: the record becomes the account, its appointment with it.
    const claimed = await verify(BORN);
    expect(claimed.status).toBe(200);
    expect(sessionUser.parse(claimed.body).id).toBe(recordId);
    const login = await api.request("POST", "/auth/login", {
      headers: newAddress(),
      body: { phone: n.card, password: PASSWORD, role: "patient" },
    });
    expect(login.status).toBe(200);
    const token = (login.body as { token: { token: string } }).token.token;
    const list = await api.request("GET", "/appointment?assigned=true", { token });
    expect(JSON.stringify(list.body)).toContain(appointment.id);

    // Claimed: nothing to unlock any more.
    const again = await unlock(desk, recordId);
    expect([again.status, refusal(again).code]).toEqual([409, "already_claimed"]);
  });

  it("is idempotent: unlocking twice, or a claim not locked, leaves the record unlocked", async () => {
    const { desk, n, recordId } = await lockedCandidate();
    const { verify } = await claimant(n);
    // Two wrong dates, not locked yet: an unlock starts the count again.
    for (const day of ["1979-03-01", "1979-03-02"])
      expect(refusal(await verify(day)).code).toBe("date_of_birth_mismatch");
    expect((await open(desk, recordId)).claimLocked).toBe(false);
    for (let i = 0; i < 2; i++) {
      const res = await unlock(desk, recordId);
      expect(res.status).toBe(200);
      expect(deskPatient.parse(res.body).claimLocked).toBe(false);
    }
    const [row] = await api.db.select({ attempts: users.claimAttempts }).from(users).where(eq(users.id, recordId));
    expect(row.attempts).toBe(0);
    // Locked, then unlocked twice by two receptionists: both answer the same.
    await lockClaim(verify);
    const other = await api.createReceptionist([], "Second Desk");
    for (const who of [desk, other]) {
      const res = await unlock(who, recordId);
      expect(res.status).toBe(200);
      expect(deskPatient.parse(res.body).claimLocked).toBe(false);
    }
  });

  it("refuses other roles (403), patients the desk may not open (404), accounts (409) and hostile ids", async () => {
    const { doctor, desk, n, recordId } = await lockedCandidate();
    const { signUpId, verify } = await claimant(n);
    await lockClaim(verify);

    const patient = await api.createPatient();
    const admin = await api.createAdmin();
    for (const [role, who] of Object.entries({ patient, doctor, admin })) {
      const res = await unlock(who, recordId);
      expect([res.status, refusal(res).code], role).toEqual([403, "forbidden"]);
    }
    expect((await open(desk, recordId)).claimLocked).toBe(true);

    // An online patient of a doctor the desk does not serve, and the claimant's own sign-up: not the desk's to open.
    const elsewhere = await api.createDoctor({ username: "Dr Elsewhere" });
    await insertAppointment(api.db, { patientId: patient.user.id, doctorId: elsewhere.user.id });
    for (const id of [patient.user.id, signUpId, crypto.randomUUID()]) {
      const res = await unlock(desk, id);
      expect([res.status, refusal(res).code], id).toEqual([404, "not_found"]);
    }
    // Ids that are no uuid at all.
    for (const id of ["not-a-uuid", "1%20or%201%3D1", "%27%3B--", encodeURIComponent(`${recordId}x`), "0"]) {
      const res = await unlock(desk, id);
      expect([res.status, refusal(res).code], id).toEqual([404, "not_found"]);
    }
    // An online patient of a doctor served: an account of their own, no claim to unlock.
    await insertAppointment(api.db, { patientId: patient.user.id, doctorId: doctor.user.id });
    const account = await unlock(desk, patient.user.id);
    expect([account.status, refusal(account).code]).toEqual([409, "already_claimed"]);

    // None of it unlocked the claim.
    expect((await open(desk, recordId)).claimLocked).toBe(true);
  });
});
