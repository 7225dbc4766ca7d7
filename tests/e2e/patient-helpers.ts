// The patient journeys' factory: a fresh verified patient per test.
import { newPatient } from "./doctor-helpers.ts";

/**
 * doctor-helpers' newPatient reads the first 6-digit number of the mail; a username whose random
 * hex part is all digits is read instead of the code about once in 16 registrations. A new
 * registration (new name) is then the simplest way to a fresh patient.
 */
export async function freshPatient(): Promise<Awaited<ReturnType<typeof newPatient>>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await newPatient();
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
}
