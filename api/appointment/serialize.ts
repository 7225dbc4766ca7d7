// The one wire shape of an appointment (docs/product.md, Data), used by the patient and doctor lists.
import type { Db } from "../db/index.ts";
import type { appointments, cities, countries, doctors, specialities, users } from "../db/schema.ts";
import { inIds } from "../query.ts";
import { clinicParts } from "../time.ts";
import { DELETED_USER } from "../../contract/constants.ts";

/** The `with` clause that loads everything `serializeAppointment` needs. */
export const appointmentWith = {
  patient: { columns: { id: true, username: true, avatarUrl: true, deletedAt: true, gender: true, dateOfBirth: true } },
  doctor: {
    columns: { id: true, username: true, avatarUrl: true, deletedAt: true },
    with: { doctor: { with: { specialities: { with: { speciality: true } } } } },
  },
  speciality: true,
  city: true,
  country: true,
} as const;

type Person = Pick<typeof users.$inferSelect, "id" | "username" | "avatarUrl" | "deletedAt">;
/** What `serializeAppointment` reads: a row loaded with `appointmentWith`, or a card of list.ts's `cardsByIds`. */
export type AppointmentRow = typeof appointments.$inferSelect & {
  patient: Person | null;
  doctor:
    | (Person & {
        doctor:
          | (Pick<typeof doctors.$inferSelect, "contact" | "dutyHospital"> & {
              specialities: { speciality: Pick<typeof specialities.$inferSelect, "id" | "name" | "nameFr"> }[];
            })
          | null;
      })
    | null;
  speciality: Pick<typeof specialities.$inferSelect, "id" | "name" | "nameFr" | "icon"> | null;
  city: Pick<typeof cities.$inferSelect, "id" | "name"> | null;
  country: Pick<typeof countries.$inferSelect, "id" | "name" | "code"> | null;
};
function loadOne(db: Db, id: string) {
  return db.query.appointments.findFirst({ where: (a, { eq }) => eq(a.id, id), with: appointmentWith });
}

export async function findAppointment(db: Db, id: string) {
  return loadOne(db, id);
}

/** findAppointment for many, in one statement. */
export function findAppointments(db: Db, ids: readonly string[]) {
  return db.query.appointments.findMany({ where: (a) => inIds(a.id, ids), with: appointmentWith });
}

const person = (u: { id: string; username: string; avatarUrl: string | null; deletedAt: Date | null } | null) =>
  u && {
    id: u.id,
    username: u.deletedAt ? DELETED_USER : u.username,
    avatarUrl: u.deletedAt ? null : u.avatarUrl,
  };

export function serializeAppointment(a: AppointmentRow) {
  const { date, iso } = clinicParts(a.startsAt);
  const doctorProfile = a.doctor?.doctor;
  return {
    id: a.id,
    status: a.status,
    type: a.type,
    category: a.category,
    date,
    time: iso,
    endTime: clinicParts(a.endsAt).iso,
    place: a.place,
    city: a.city?.name ?? null,
    country: a.country?.name ?? null,
    price: a.price,
    tag: a.tag,
    details: a.details,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt?.toISOString() ?? null,
    specialityId: a.specialityId,
    doctorId: a.doctorId,
    patientId: a.patientId,
    Doctor: a.doctor && {
      ...person(a.doctor)!,
      contact: a.doctor.deletedAt ? null : (doctorProfile?.contact ?? null),
      duty_hospital: doctorProfile?.dutyHospital ?? null,
      specialities:
        doctorProfile?.specialities.map((s) => ({
          id: s.speciality.id,
          name: s.speciality.name,
          nameFr: s.speciality.nameFr,
        })) ?? [],
    },
    Patient: person(a.patient),
    Speciality: a.speciality && {
      id: a.speciality.id,
      name: a.speciality.name,
      nameFr: a.speciality.nameFr,
      icon: a.speciality.icon,
    },
    City: a.city && { id: a.city.id, name: a.city.name },
    Country: a.country && { id: a.country.id, name: a.country.name, code: a.country.code },
  };
}
