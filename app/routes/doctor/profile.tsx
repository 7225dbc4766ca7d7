// The doctor's profile behind the code gate (docs/product.md, Screens and routes; docs/architecture.md, The session).
// Without a valid gate record the loader sends a code and the page shows the code dialog; with it,
// the profile (profile-view.tsx: the card; the edit form with ?edit=1 and account deletion with
// ?delete=1, declared here).
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "../../i18n.ts";
import { useEffect } from "react";
import { afterHydration, loadWhenUserActs } from "../../after-hydration.ts";
import { data, Form, Link, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/profile";
import { getUser, upstream } from "../../auth.server.ts";
import { CodeForm, readCode } from "../../components/code-input.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { PageHeader } from "../../components/page.tsx";
import { citiesOf, cityOfNewCountry, reloadCities } from "../../location.server.ts";
import { deleteAccount } from "../../profile.server.ts";
import { sessionStorage } from "../../session.server.ts";
import { redirectWithToast, toastCookie } from "../../toast.server.ts";
import { formatPhone } from "../../phone.server.ts";
import { codeTriedContext, profileAccess } from "./profile-gate.server.ts";
import { doctorProfileSchema } from "./profile-schema.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import type { DoctorProfile, DoctorProfileUpdate } from "../../../contract/doctor-profile.ts";
import type { Country } from "../../../contract/reference.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getUser(context);
  const api = upstream(request, context);
  const params = new URL(request.url).searchParams;
  const { valid, stale, session } = await profileAccess(request, user.id);
  const stored = await api.get<DoctorProfile>("/doctor/doctor-info");
  const profile = { ...stored, contact: formatPhone(stored.contact) };
  if (!valid) {
    // The dialog sends a code when it opens (not when it shows again after a try: codeTriedContext);
    // the API does not resend within a minute.
    const sent = context.get(codeTriedContext)
      ? null
      : await api.call("POST", "/auth/generateProfileOtp", { body: { email: profile.email } });
    const headers = new Headers();
    if (stale) {
      session.unset("profileVerified");
      headers.append("Set-Cookie", await sessionStorage.commitSession(session));
    }
    return data(
      {
        gate: true as const,
        email: profile.email,
        sendError: !sent || sent.ok ? null : upstreamErrorKey(sent, "profileGate", "doctor:gate.sendFailed"),
      },
      { headers },
    );
  }
  const [countries, cities] = await Promise.all([
    api.call<Country[]>("GET", "/location/country"),
    citiesOf(api, profile.countryId),
  ]);
  return {
    gate: false as const,
    profile,
    countries: countries.ok ? countries.data : [],
    cities,
    editing: params.get("edit") === "1",
    deleting: params.get("delete") === "1",
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = getUser(context);
  const api = upstream(request, context);
  const formData = await request.formData();
  const intent = formData.get("intent");
  const userId = encodeURIComponent(user.id);

  if (intent === "verify") {
    context.set(codeTriedContext, true);
    const code = readCode(formData);
    if (!/^\d{6}$/.test(code)) return data({ gateError: "doctor:gate.incomplete", notice: null }, { status: 400 });
    const answer = await api.call("PUT", `/auth/verifyProfileOtp/${userId}`, { body: { otpCode: code } });
    if (!answer.ok)
      return data(
        { gateError: upstreamErrorKey(answer, "profileGate", "doctor:gate.invalidCode"), notice: null },
        { status: answer.status },
      );
    const { session } = await profileAccess(request, user.id);
    session.set("profileVerified", { userId: user.id, verifiedAt: Date.now() });
    const headers = new Headers();
    headers.append("Set-Cookie", await sessionStorage.commitSession(session));
    headers.append("Set-Cookie", await toastCookie({ type: "success", message: "doctor:gate.verified" }));
    throw redirect("/doctor/profile", { headers });
  }

  if (intent === "resend") {
    const answer = await api.call("PUT", `/auth/resendProfileOtp/${userId}`);
    if (!answer.ok)
      return data(
        { gateError: upstreamErrorKey(answer, "profileGate", "doctor:gate.resendFailed"), notice: null },
        { status: answer.status },
      );
    return { gateError: null, notice: "doctor:gate.resent" };
  }

  // Everything below needs a passed gate.
  const { valid } = await profileAccess(request, user.id);
  if (!valid) {
    // A deletion sent after the gate closed (it expired, or the doctor signed in again elsewhere)
    // says so on the gate it now meets, instead of bringing the doctor back there in silence.
    if (intent === "delete")
      return data(
        { gateError: "doctor:profile.deleteGateClosed", notice: null, gateClosed: true as const },
        { status: 403 },
      );
    throw redirect("/doctor/profile");
  }
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;

  if (intent === "delete") return deleteAccount(request, api, "doctor", idempotencyKey);
  if (intent === "cities") return reloadCities(api, formData, doctorProfileSchema);
  const askCity = await cityOfNewCountry(api, formData, doctorProfileSchema, "doctor:profile");
  if (askCity) return data(askCity, { status: 400 });

  const submission = parseWithZod(formData, { schema: doctorProfileSchema });
  if (submission.status !== "success")
    return data({ result: submission.reply(), cities: null, country: null }, { status: 400 });
  const v = submission.value;
  const answer = await api.call("PUT", "/doctor/me", {
    body: {
      username: v.username,
      contact: v.contact,
      gender: v.gender ?? null,
      serial_number: v.serial_number,
      duty_hospital: v.duty_hospital,
      biography: v.biography,
      countryId: v.countryId ?? null,
      cityId: v.cityId ?? null,
    } satisfies DoctorProfileUpdate,
    idempotencyKey,
  });
  if (!answer.ok)
    return data(
      { result: submission.reply({ formErrors: ["doctor:profile.updateFailed"] }), cities: null, country: null },
      { status: answer.status },
    );
  return redirectWithToast("/doctor/profile", { type: "success", message: "doctor:profile.updated" });
}

type ActionData = Route.ComponentProps["actionData"];

// A deletion refused because the gate closed must show the gate now (JavaScript on as off); a wrong
// code must not reload the gate, which would mail another code.
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionResult?.gateClosed === true || defaultShouldRevalidate;
}

function CodeGate({
  email,
  sendError,
  actionData,
}: {
  email: string;
  sendError: string | null;
  actionData: ActionData;
}) {
  const { t } = useTranslation();
  const gate = actionData && "gateError" in actionData ? actionData : null;
  return (
    <section>
      <PageHeader title={t("doctor:profile.title")} />
      <Dialog title={t("doctor:gate.title")} closeTo="/doctor/appointments">
        <p className="mb-4 text-sm text-slate-700">{t("doctor:gate.sentTo", { email })}</p>
        {/* A new answer clears the boxes (the key changes). */}
        <CodeForm key={JSON.stringify(gate)} error={gate?.gateError ?? sendError} notice={gate?.notice}>
          {t("doctor:gate.verify")}
        </CodeForm>
        <div className="mt-4 flex flex-wrap justify-between gap-2">
          <Form method="post">
            <SubmitButton className="btn-secondary" name="intent" value="resend">
              {t("doctor:gate.resend")}
            </SubmitButton>
          </Form>
          <Link to="/doctor/appointments" className="btn-secondary">
            {t("doctor:gate.cancel")}
          </Link>
        </div>
      </Dialog>
    </section>
  );
}

// The profile's view loads apart from the gate (profile-view.tsx); a doctor on the gate fetches it
// once the page is interactive, so the profile shows at once when the code is accepted. The edit
// form (with conform's form state, zod and the country/city pair) and the deletion dialog load apart
// from the view, after the page is interactive: the view needs neither. A page opened on one renders
// it on the server as always and hydrates once the view's module and the part's have come (no
// Suspense boundary, so nothing shows a fallback). Declared here, not in the view, so that such a
// page asks for both at once, in the render (no effect runs before the view has come): the view
// would ask for the part only once it had come itself, one more round trip on a slow network.
const loadView = () => import("./profile-view.tsx");
const OpenProfile = afterHydration(() => loadView().then((m) => m.OpenProfile));
const loadEditForm = () => import("./profile-form.tsx");
const EditForm = afterHydration(() => loadEditForm().then((m) => m.EditForm));
const loadDeleteDialog = () => import("../../components/delete-account-dialog.tsx");
const DeleteAccountDialog = afterHydration(() => loadDeleteDialog().then((m) => m.DeleteAccountDialog));

export default function DoctorProfilePage({ loaderData: d, actionData }: Route.ComponentProps) {
  const gate = d.gate;
  useEffect(() => {
    // Fetched at the user's first act on the page, so each shows at once when opened; one that fails
    // is tried again when shown (after-hydration.ts).
    if (gate) {
      loadWhenUserActs(loadView);
    } else {
      loadWhenUserActs(loadEditForm);
      loadWhenUserActs(loadDeleteDialog);
    }
  }, [gate]);
  if (d.gate) return <CodeGate email={d.email} sendError={d.sendError} actionData={actionData} />;
  // The edit form shows with ?edit=1 and after a refused update; the dialog with ?delete=1 and after a refused deletion.
  const editing = d.editing || Boolean(actionData && "result" in actionData);
  const deleteError = actionData && "deleteError" in actionData ? actionData.deleteError : null;
  const deleting = d.deleting || Boolean(deleteError);
  if (typeof document !== "undefined") {
    if (editing) loadEditForm().catch(() => {});
    if (deleting) loadDeleteDialog().catch(() => {});
  }
  return (
    <OpenProfile
      data={d}
      editForm={editing ? <EditForm data={d} actionData={actionData} /> : null}
      deleteDialog={
        deleting ? <DeleteAccountDialog role="doctor" idempotencyKey={d.idempotencyKey} error={deleteError} /> : null
      }
    />
  );
}
