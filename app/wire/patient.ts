// Wire shapes the patient screens read from the upstream that contract/ does not hold yet
// (api/doctor/card.ts, api/patient/profile.ts); appointments and proposals are contract/appointment.ts.

export interface Place {
  id: number;
  name: string;
}

/** A country carries its ISO code: the screens name it in the reader's language (app/format.ts). */
export interface Country extends Place {
  code?: string;
}

export interface Speciality {
  id: number;
  name: string;
  nameFr?: string;
  isGeneral?: boolean;
}

export interface PatientProfile {
  id: string;
  username: string;
  email: string;
  phone: string | null;
  address: string | null;
  gender: "male" | "female" | "other" | null;
  profession: string | null;
  countryId: number | null;
  cityId: number | null;
  Country: Country | null;
  City: Place | null;
  avatarUrl: string | null;
  createdAt: string;
}
