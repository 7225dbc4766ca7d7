// The doctor's profile once the code gate is passed (profile.tsx): the card, the facts, the edit
// form (?edit=1) and account deletion (?delete=1). It loads apart from the gate, which is what a
// doctor meets first, so the gate's page does not carry the profile's view; a page opened past the
// gate renders it on the server as always and hydrates once this module has arrived
// (docs/decisions/0003-first-load-javascript-budget.md).
import { useEffect } from "react";
import { afterHydration } from "../../after-hydration.ts";
import { useTranslation } from "../../i18n.ts";
import { knownGender, ProfileCard, ProfileFacts, ProfileHeader, ProfileLayout } from "../../components/profile.tsx";
import { countryName, specialityName } from "../../format.ts";
import type { DoctorProfile } from "../../../contract/doctor-profile.ts";
import type { Route } from "./+types/profile";

type ActionData = Route.ComponentProps["actionData"];
type ProfileData = Extract<Route.ComponentProps["loaderData"], { gate: false }>;

// The edit form (and conform's form state, zod, the country/city pair with it) and the account
// deletion dialog load after the page is interactive, as on the patient's profile: the profile's
// view needs neither. A page opened with ?edit=1 or ?delete=1 renders them on the server as always
// and hydrates once the module has arrived (no Suspense boundary, so nothing shows a fallback); Edit
// or Delete, clicked later, finds it loaded.
const loadEditForm = () => import("./profile-form.tsx");
const EditForm = afterHydration(() => loadEditForm().then((m) => m.EditForm));
const loadDeleteDialog = () => import("../../components/delete-account-dialog.tsx");
const DeleteAccountDialog = afterHydration(() => loadDeleteDialog().then((m) => m.DeleteAccountDialog));

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

export function OpenProfile({ data: d, actionData }: { data: ProfileData; actionData: ActionData }) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    // Fetched now, so it shows at once; one that fails is tried again when shown (after-hydration.ts).
    loadEditForm().catch(() => {});
    loadDeleteDialog().catch(() => {});
  }, []);
  const p = d.profile;
  const editing = d.editing || Boolean(actionData && "result" in actionData);
  const deleteError = actionData && "deleteError" in actionData ? actionData.deleteError : null;
  return (
    <section>
      <ProfileHeader role="doctor" editing={editing} />
      <ProfileLayout
        title={t("doctor:profile.details")}
        card={
          <ProfileCard
            role="doctor"
            name={p.username}
            title={t("doctor:profile.drName", { name: p.username })}
            avatarUrl={p.avatarUrl}
            email={p.email}
            lines={[p.contact, p.duty_hospital, p.serial_number && t("doctor:profile.serialShort", { serial: p.serial_number })]}
            createdAt={p.createdAt}
          />
        }
      >
        {editing ? <EditForm data={d} actionData={actionData} /> : <ProfileView p={p} />}
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
      {d.deleting || deleteError ? <DeleteAccountDialog role="doctor" idempotencyKey={d.idempotencyKey} error={deleteError} /> : null}
    </section>
  );
}
