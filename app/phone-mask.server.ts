// A phone number as the verification page shows it: enough for the patient to recognise their own,
// too little for someone looking over their shoulder (+237 6 •• •• •• 56).
import { parsePhoneNumberFromString } from "libphonenumber-js";
import { DEFAULT_PHONE_REGION } from "../contract/phone.ts";

export function maskPhone(phone: string): string {
  const parsed = parsePhoneNumberFromString(phone, DEFAULT_PHONE_REGION);
  if (!parsed) return "••••";
  const shown = parsed.formatInternational();
  const prefix = `+${parsed.countryCallingCode}`;
  const national = shown.slice(prefix.length);
  const digits = national.replace(/\D/g, "").length;
  let seen = 0;
  // The first digit (the operator) and the last two stay.
  const masked = national.replace(/\d/g, (d) => {
    seen++;
    return seen === 1 || seen > digits - 2 ? d : "•";
  });
  return prefix + masked;
}
