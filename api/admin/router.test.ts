import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { PASSWORD, startApi, refusal, setUpApi, type TestAdmin, type TestReference } from "../test/harness.ts";
import { doctors, users } from "../db/schema.ts";
import { verifyPassword } from "../auth/password.ts";
import { createAdminAccount, findDoctorId, listDoctorsByVerification, specialityIdsByName } from "./doctors.ts";
import { adminDoctor, adminDoctorPage } from "../../contract/admin.ts";

describe("doctor verification: /admin", () => {
  const api = setUpApi();
  let ref: TestReference;
  let admin: TestAdmin;
  const mails = () => (api.mailer as unknown as { messages: { to: string; subject: string; text: string }[] }).messages;

  beforeAll(async () => {
    ref = await api.reference();
    admin = await api.createAdmin();
  });

  const pending = (username = "Dr Waiting") =>
    api.createDoctor({ verification: "pending", username, specialities: [] });
  const approve = (id: string, body: unknown = { specialityIds: [] }, token = admin.token) =>
    api.request("POST", `/admin/doctors/${id}/approve`, { answer: adminDoctor, token, body });
  const reject = (id: string, body: unknown = {}, token = admin.token) =>
    api.request("POST", `/admin/doctors/${id}/reject`, { answer: adminDoctor, token, body });

  it("pages the list like every other list: 20 by default, page and limit, the total and the page count", async () => {
    // A database of its own, so that the count is exactly the doctors made here.
    const own = await startApi();
    try {
      const ownAdmin = await own.createAdmin();
      // 23 registrations a second apart (one insert: hashing 23 passwords would take the test's time).
      const start = Date.now() - 86_400_000;
      const queue = await own.db
        .insert(users)
        .values(
          Array.from({ length: 23 }, (_, i) => ({
            email: own.unique("queue"),
            username: `Dr Queue ${i}`,
            passwordHash: "x",
            role: "doctor" as const,
            otpVerified: true,
            createdAt: new Date(start + i * 1000),
          })),
        )
        .returning({ id: users.id });
      await own.db
        .insert(doctors)
        .values(
          queue.map(({ id }, i) => ({ userId: id, serialNumber: `MED-Q${i}`, verification: "pending" as const })),
        );
      const made = queue.map((r) => r.id);
      await own.createDoctor({ username: "Dr Verified" });
      const list = (query: string) =>
        own.request("GET", `/admin/doctors${query}`, { answer: adminDoctorPage, token: ownAdmin.token });
      const first = await list("");
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ total: 23, page: 1, limit: 20, totalPages: 2 });
      expect(first.body.doctors).toHaveLength(20);
      const second = await list("?page=2");
      expect(second.body).toMatchObject({ total: 23, page: 2, totalPages: 2 });
      // Oldest first across the pages, each doctor on exactly one page.
      expect([...first.body.doctors, ...second.body.doctors].map((d: { id: string }) => d.id)).toEqual(made);
      expect((await list("?page=3")).body.doctors).toEqual([]);
      expect((await list("?limit=5&page=5")).body.doctors.map((d: { id: string }) => d.id)).toEqual(made.slice(20));
      expect((await list("?limit=1000")).body.limit).toBe(100);
      for (const bad of ["?page=0", "?page=x", "?limit=-1", "?page=1.5"])
        expect((await list(bad)).status, bad).toBe(400);
      expect((await list("?status=verified")).body).toMatchObject({ total: 1, doctors: [{ username: "Dr Verified" }] });
    } finally {
      await own.close();
    }
  }, 90_000);

  it("lists doctors awaiting verification by default, oldest first, with what the admin needs to decide", async () => {
    const a = await pending("Dr First");
    const b = await pending("Dr Second");
    await api.createDoctor({ username: "Dr Already" });
    const res = await api.request("GET", "/admin/doctors", { answer: adminDoctorPage, token: admin.token });
    expect(res.status).toBe(200);
    const ours = res.body.doctors.filter((d: { id: string }) => [a.user.id, b.user.id].includes(d.id));
    expect(ours.map((d: { username: string }) => d.username)).toEqual(["Dr First", "Dr Second"]);
    expect(res.body.doctors.every((d: { verification: string }) => d.verification === "pending")).toBe(true);
    expect(ours[0]).toEqual({
      id: a.user.id,
      username: "Dr First",
      email: a.user.email,
      serial_number: expect.stringMatching(/^MED-/),
      contact: "+237 600 000 000",
      createdAt: expect.any(String),
      verification: "pending",
      verifiedAt: null,
      specialities: [],
    });
    const verified = await api.request("GET", "/admin/doctors?status=verified", {
      answer: adminDoctorPage,
      token: admin.token,
    });
    expect(verified.body.doctors.map((d: { username: string }) => d.username)).toContain("Dr Already");
    expect((await api.request("GET", "/admin/doctors?status=maybe", { token: admin.token })).status).toBe(400);
  });

  it("finds doctors by a part of the name, any case, LIKE wildcards taken literally", async () => {
    const list = (query: string) =>
      api.request("GET", `/admin/doctors?status=verified&${query}`, { answer: adminDoctorPage, token: admin.token });
    const tag = api.unique("name").replace(/\W/g, "");
    const plain = await api.createDoctor({ username: `Dr Zola ${tag}` });
    const percent = await api.createDoctor({ username: `Dr 100% ${tag}` });
    const underscore = await api.createDoctor({ username: `Dr a_b ${tag}` });
    await pending(`Dr Zola ${tag} pending`);
    const ids = async (query: string) => {
      const res = await list(query);
      expect(res.status, query).toBe(200);
      return res.body.doctors.map((d: { id: string }) => d.id);
    };
    expect(await ids(`q=${encodeURIComponent(` zOLA ${tag.toUpperCase()} `)}`)).toEqual([plain.user.id]);
    expect((await list(`q=${tag}`)).body).toMatchObject({ total: 3 });
    // % and _ match themselves, not any text or any letter.
    expect(await ids(`q=${encodeURIComponent(`0% ${tag}`)}`)).toEqual([percent.user.id]);
    expect(await ids(`q=${encodeURIComponent(`%${tag}`)}`)).toEqual([]);
    expect(await ids(`q=${encodeURIComponent(`a_b ${tag}`)}`)).toEqual([underscore.user.id]);
    expect(await ids(`q=${encodeURIComponent(`a_ ${tag}`)}`)).toEqual([]);
    expect(await ids(`q=${encodeURIComponent(`Zol_ ${tag}`)}`)).toEqual([]);
    // A blank search is no search; an over-long one is refused.
    expect((await list("q=%20%20")).body.total).toBeGreaterThanOrEqual(3);
    expect((await list(`q=${"x".repeat(101)}`)).status).toBe(400);
    expect((await list(`q=${"x".repeat(100)}`)).status).toBe(200);
  });

  it("approves a doctor with the specialities the admin assigns, and mails the doctor", async () => {
    const d = await pending();
    const cardiology = ref.speciality("Cardiology").id;
    const neurology = ref.speciality("Neurology").id;
    const res = await approve(d.user.id, { specialityIds: [cardiology, neurology, cardiology] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: d.user.id, verification: "verified", verifiedAt: expect.any(String) });
    expect(res.body.specialities.map((s: { name: string }) => s.name)).toEqual(["Cardiology", "Neurology"]);
    const mail = mails()
      .filter((m) => m.to === d.user.email)
      .at(-1);
    expect(mail?.subject).toMatch(/verified/i);
    // The doctor now acts: their profile says verified, and search lists them.
    const info = await api.request("GET", "/doctor/doctor-info", { token: d.token });
    expect(info.body).toMatchObject({
      verification: "verified",
      specialities: [{ name: "Cardiology" }, { name: "Neurology" }],
    });
  });

  it("mails a French doctor in French", async () => {
    const d = await pending();
    await api.db.update(users).set({ locale: "fr" }).where(eq(users.id, d.user.id));
    await approve(d.user.id);
    expect(
      mails()
        .filter((m) => m.to === d.user.email)
        .at(-1)?.subject,
    ).toMatch(/vérifié/);
  });

  it("rejects a doctor with an optional reason, and mails it", async () => {
    const d = await pending();
    const res = await reject(d.user.id, { reason: "Serial number not found in the register" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: d.user.id, verification: "rejected", verifiedAt: null });
    expect(
      mails()
        .filter((m) => m.to === d.user.email)
        .at(-1)?.text,
    ).toContain("Serial number not found in the register");
    const noReason = await pending();
    expect((await reject(noReason.user.id)).status).toBe(200);
  });

  it("answers 409 already_decided for a doctor already approved or rejected", async () => {
    const d = await pending();
    await approve(d.user.id);
    for (const again of [await approve(d.user.id), await reject(d.user.id)]) {
      expect(again.status).toBe(409);
      expect(refusal(again).code).toBe("already_decided");
    }
    const r = await pending();
    await reject(r.user.id);
    expect((await approve(r.user.id)).status).toBe(409);
  });

  it("answers 404 for unknown ids and for accounts that are not doctors; 400 for unknown specialities", async () => {
    const patient = await api.createPatient();
    expect((await approve("00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await approve("nope")).status).toBe(404);
    expect((await approve(patient.user.id)).status).toBe(404);
    expect((await reject(admin.user.id)).status).toBe(404);
    const d = await pending();
    expect(refusal(await approve(d.user.id, { specialityIds: [99999] })).code).toBe("invalid_speciality");
    expect((await approve(d.user.id, { specialityIds: "Cardiology" })).status).toBe(400);
    const [row] = await api.db.select().from(doctors).where(eq(doctors.userId, d.user.id));
    expect(row.verification).toBe("pending");
  });

  it("is for admins only: patients and doctors get 403, anonymous 401", async () => {
    const d = await pending();
    const patient = await api.createPatient();
    const doctor = await api.createDoctor();
    for (const token of [patient.token, doctor.token, d.token]) {
      expect((await api.request("GET", "/admin/doctors", { token })).status).toBe(403);
      expect((await approve(d.user.id, { specialityIds: [] }, token)).status).toBe(403);
      expect((await reject(d.user.id, {}, token)).status).toBe(403);
    }
    expect((await api.request("GET", "/admin/doctors")).status).toBe(401);
    const [row] = await api.db.select().from(doctors).where(eq(doctors.userId, d.user.id));
    expect(row.verification).toBe("pending");
  });

  describe("the data functions the CLI shares", () => {
    it("finds a doctor by e-mail, case-insensitively, and nobody else", async () => {
      const d = await pending();
      expect(await findDoctorId(api.db, d.user.email.toUpperCase())).toBe(d.user.id);
      await expect(findDoctorId(api.db, admin.user.email)).rejects.toMatchObject({ status: 404 });
      await expect(findDoctorId(api.db, "nobody@example.test")).rejects.toMatchObject({ status: 404 });
    });

    it("resolves speciality names in English or French, refusing unknown ones", async () => {
      expect(await specialityIdsByName(api.db, ["cardiology", "Pédiatrie"])).toEqual([
        ref.speciality("Cardiology").id,
        ref.speciality("Pediatrics").id,
      ]);
      await expect(specialityIdsByName(api.db, ["Astrology"])).rejects.toMatchObject({
        status: 400,
        code: "invalid_speciality",
      });
    });

    it("lists by status", async () => {
      const d = await pending("Dr Listed");
      expect((await listDoctorsByVerification(api.db, "pending")).map((x) => x.id)).toContain(d.user.id);
    });

    it("creates an admin account with a hashed password, once per e-mail", async () => {
      const email = api.unique("boss");
      const created = await createAdminAccount(api.db, { email, username: "The Boss", password: PASSWORD });
      const [row] = await api.db.select().from(users).where(eq(users.id, created.id));
      expect(row).toMatchObject({ role: "admin", otpVerified: true, username: "The Boss" });
      expect(row.passwordHash).not.toContain(PASSWORD);
      expect(await verifyPassword(row.passwordHash, PASSWORD)).toBe(true);
      await expect(
        createAdminAccount(api.db, { email: email.toUpperCase(), username: "Again", password: PASSWORD }),
      ).rejects.toMatchObject({ status: 409 });
      await expect(
        createAdminAccount(api.db, { email: api.unique("x"), username: "Short", password: "123" }),
      ).rejects.toMatchObject({ code: "invalid_password" });
      await expect(
        createAdminAccount(api.db, { email: "not-an-email", username: "Name", password: PASSWORD }),
      ).rejects.toMatchObject({ code: "invalid_email" });
    });
  });
});
