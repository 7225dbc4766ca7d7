// The doctor's profile once the code gate is passed (profile.tsx): the card and the facts, or the
// edit form (?edit=1) in their place, and the deletion dialog (?delete=1), both given by the route
// (their modules load apart from this one). It loads apart from the gate, which is what a
// doctor meets first, so the gate's page does not carry the profile's view; a page opened past the
// gate renders it on the server as always and hydrates once this module has arrived
// (docs/decisions/0003-first-load-javascript-budget.md).
import type { ReactNode } from "react";
import { useTranslation } from "../../i18n.ts";
import { knownGender, ProfileCard, ProfileFacts, ProfileHeader, ProfileLayout } from "../../components/profile.tsx";
import { countryName, specialityName } from "../../format.ts";
import type { DoctorProfile } from "../../../contract/doctor-profile.ts";
import type { Route } from "./+types/profile";

type ProfileData = Extract<Route.ComponentProps["loaderData"], { gate: false }>;

function ProfileView({ p }: { p: DoctorProfile }) {
  const { t, i18n } = useTranslation();
  const gender = knownGender(p.gender);
  return (
    <ProfileFacts
      role="doctor"
      facts={[
        [t("doctor:profile.username"), p.username],
        [t("doctor:profile.contact"), p.contact],
        [t("doctor:profile.gender"), gender && t(`doctor:profile.${gender}`)],
        [t("doctor:profile.serial"), p.serial_number],
        [t("doctor:profile.dutyHospital"), p.duty_hospital],
        [t("doctor:profile.biography"), p.biography],
        [t("doctor:profile.country"), p.Country && countryName(p.Country, i18n.language)],
        [t("doctor:profile.city"), p.City?.name],
      ]}
    />
  );
}

/**
 * The profile; `editForm` in place of its facts and `deleteDialog` over it when the page shows them
 * (the route, profile.tsx, renders both: their modules load apart from this one).
 */
export function OpenProfile({
  data: d,
  editForm,
  deleteDialog,
}: {
  data: ProfileData;
  editForm: ReactNode;
  deleteDialog: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const p = d.profile;
  return (
    <section>
      <ProfileHeader role="doctor" editing={Boolean(editForm)} />
      <ProfileLayout
        title={t("doctor:profile.details")}
        card={
          <ProfileCard
            role="doctor"
            name={p.username}
            title={t("doctor:profile.drName", { name: p.username })}
            avatarUrl={p.avatarUrl}
            email={p.email}
            lines={[
              p.contact,
              p.duty_hospital,
              p.serial_number && t("doctor:profile.serialShort", { serial: p.serial_number }),
            ]}
            createdAt={p.createdAt}
          />
        }
      >
        {editForm ?? <ProfileView p={p} />}
        <div>
          <h3 className="text-sm font-medium text-slate-700">{t("doctor:profile.specialities")}</h3>
          {p.specialities.length ? (
            <ul className="mt-1 flex flex-wrap gap-2">
              {p.specialities.map((s) => (
                <li key={s.id} className="rounded-full bg-slate-100 px-3 py-0.5 text-sm text-slate-800">
                  {specialityName(s, i18n.language)}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-slate-900">{t("doctor:profile.noSpecialities")}</p>
          )}
          <p className="mt-1 text-xs text-slate-600">{t("doctor:profile.specialitiesHint")}</p>
        </div>
      </ProfileLayout>
      {deleteDialog}
    </section>
  );
}
