// The patient's profile (docs/product.md, Screens and routes): a view, the edit form (?edit=1) with the country/city
// pair, account deletion (?delete=1) and 'Download my data' (/patient/profile/export).
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "../../i18n.ts";
import { useEffect } from "react";
import { afterHydration, loadWhenUserActs } from "../../after-hydration.ts";
import { data, isRouteErrorResponse, useNavigation } from "react-router";
import type { Route } from "./+types/profile";
import { requireUser, upstream } from "../../auth.server.ts";
import { PageHeader } from "../../components/page.tsx";
import type { PatientProfile, PatientProfileUpdate } from "../../../contract/patient.ts";
import type { Country, Place } from "../../../contract/reference.ts";
import { knownGender, ProfileCard, ProfileFacts, ProfileHeader, ProfileLayout } from "../../components/profile.tsx";
import { formatPhone } from "../../phone.server.ts";
import { citiesOf, cityOfNewCountry, reloadCities } from "../../location.server.ts";
import { deleteAccount } from "../../profile.server.ts";
import { redirectWithToast } from "../../toast.server.ts";
import { patientProfileSchema } from "./profile-schema.ts";
import { countryName } from "../../format.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("patient")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = upstream(request, context);
  const params = new URL(request.url).searchParams;
  const stored = await api.get<PatientProfile | null>("/patient/me");
  const profile = stored && { ...stored, phone: formatPhone(stored.phone) };
  const editing = params.get("edit") === "1";
  const [countries, cities] = editing
    ? await Promise.all([api.call<Country[]>("GET", "/location/country"), citiesOf(api, profile?.countryId)])
    : [null, [] as Place[]];
  return {
    profile,
    countries: countries?.ok ? countries.data : [],
    cities,
    editing,
    deleting: params.get("delete") === "1",
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const api = upstream(request, context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;

  if (intent === "delete") return deleteAccount(request, api, "patient", idempotencyKey);
  if (intent === "cities") return reloadCities(api, formData, patientProfileSchema);
  const askCity = await cityOfNewCountry(api, formData, patientProfileSchema, "patient:location");
  if (askCity) return data(askCity, { status: 400 });

  const submission = parseWithZod(formData, { schema: patientProfileSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), cities: null, country: null }, { status: 400 });
  const v = submission.value;
  const answer = await api.call("PUT", "/patient/me", {
    body: {
      username: v.username,
      phone: v.phone,
      gender: v.gender ?? null,
      profession: v.profession,
      address: v.address,
      countryId: v.countryId ?? null,
      cityId: v.cityId ?? null,
    } satisfies PatientProfileUpdate,
    idempotencyKey,
  });
  if (!answer.ok) {
    const message = upstreamErrorKey(answer, "profile", "patient:profile.updateFailed");
    return data(
      { result: submission.reply({ formErrors: [message] }), cities: null, country: null },
      { status: answer.status },
    );
  }
  return redirectWithToast("/patient/profile", { type: "success", message: "patient:profile.updated" });
}

// The edit form (and conform's form state, zod, the country/city pair with it) loads after the page
// is interactive: the profile's view does not need it. A page opened with ?edit=1 renders the form
// on the server as always and hydrates once the module has arrived (there is no Suspense boundary,
// so nothing shows a fallback); Edit, clicked later, finds it loaded.
const loadEditForm = () => import("./profile-form.tsx");
const EditForm = afterHydration(() => loadEditForm().then((m) => m.EditForm));
// The same for the account deletion dialog (?delete=1).
const loadDeleteDialog = () => import("../../components/delete-account-dialog.tsx");
const DeleteAccountDialog = afterHydration(() => loadDeleteDialog().then((m) => m.DeleteAccountDialog));

function ProfileView({ p }: { p: PatientProfile }) {
  const { t, i18n } = useTranslation();
  const gender = knownGender(p.gender);
  return (
    <ProfileFacts
      role="patient"
      facts={[
        [t("patient:profile.username"), p.username],
        [t("patient:profile.phone"), p.phone],
        [t("patient:profile.gender"), gender && t(`patient:profile.${gender}`)],
        [t("patient:profile.profession"), p.profession],
        [t("patient:profile.address"), p.address],
        [t("patient:location.country"), p.Country && countryName(p.Country, i18n.language)],
        [t("patient:location.city"), p.City?.name],
      ]}
    />
  );
}

export default function PatientProfilePage({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  useEffect(() => {
    // Fetched at the user's first act on the page, so it shows at once when opened; one that fails is
    // tried again when shown (after-hydration.ts).
    loadWhenUserActs(loadEditForm);
    loadWhenUserActs(loadDeleteDialog);
  }, []);
  const p = d.profile;
  if (navigation.state === "loading" && navigation.location.pathname === "/patient/profile" && !p) {
    return <p role="status">{t("patient:profile.loading")}</p>;
  }
  if (!p) {
    return (
      <section>
        <PageHeader title={t("patient:profile.title")} />
        <p className="card text-slate-700">{t("patient:profile.noData")}</p>
      </section>
    );
  }
  const deleteError = actionData && "deleteError" in actionData ? actionData.deleteError : null;
  const submitted = actionData && "result" in actionData ? actionData : undefined;
  const editing = d.editing || Boolean(submitted);
  return (
    <section>
      <ProfileHeader role="patient" editing={editing} />
      {navigation.state === "loading" && navigation.location.pathname === "/patient/profile" ? (
        <p role="status" className="mb-2 text-sm text-slate-700">
          {t("patient:profile.loading")}
        </p>
      ) : null}
      <ProfileLayout
        title={t("patient:profile.details")}
        card={
          <ProfileCard
            role="patient"
            name={p.username}
            title={p.username}
            avatarUrl={p.avatarUrl}
            email={p.email}
            lines={[p.phone, p.address, p.profession]}
            createdAt={p.createdAt}
          />
        }
      >
        {editing ? <EditForm d={d} p={p} actionData={submitted} /> : <ProfileView p={p} />}
      </ProfileLayout>
      {d.deleting || deleteError ? (
        <DeleteAccountDialog role="patient" idempotencyKey={d.idempotencyKey} error={deleteError} />
      ) : null}
    </section>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  // What the upstream said stays in the log: the page says, in the reader's language, what failed.
  const failure = isRouteErrorResponse(error)
    ? { status: error.status, code: (error.data as { code?: string } | null)?.code }
    : { status: 500 };
  return (
    <section>
      <PageHeader title={t("patient:profile.title")} />
      <div role="alert" className="card space-y-2">
        <p className="text-red-800">{t(upstreamErrorKey(failure, "page", "patient:profile.fetchFailed"))}</p>
        <a href="/patient/profile" className="btn-secondary">
          {t("patient:profile.retry")}
        </a>
      </div>
    </section>
  );
}
