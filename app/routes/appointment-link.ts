// The short link of a text message (docs/sms.md): /a/<appointment id>, so the message keeps to one
// SMS. It leads to the appointment in the patient's list, which asks to sign in first if needed
// and shows only the patient's own appointments.
import { data, redirect } from "react-router";
import type { Route } from "./+types/appointment-link";
import { isUuid } from "../../contract/fields.ts";

export function loader({ params }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw data(null, { status: 404 });
  return redirect(`/health/doctors/my-appointments?appointment=${params.id}`);
}
