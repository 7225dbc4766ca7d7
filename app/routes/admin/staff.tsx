// The front desk's staff (docs/product.md, The front desk): the receptionists, each with the doctors
// they serve; the admin creates one (name, e-mail, doctors among the verified ones: an invitation
// mail carries the code that sets their password), changes the doctors served, and deactivates one
// after a confirmation addressed by the URL (?deactivate=<id>), so it works without JavaScript.
import { useEffect } from "react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, useLocation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/staff";
import { useTranslation } from "../../i18n.ts";
import { requireUser, upstream } from "../../auth.server.ts";
import { afterHydration } from "../../after-hydration.ts";
import { withParams } from "../../url.ts";
import { PageHeader } from "../../components/page.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { ActionForm, SubmitButton } from "../../components/submit-button.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { redirectWithToast } from "../../toast.server.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import { staffSchema } from "./staff-schema.ts";
import { DoctorChoice } from "./doctor-choice.tsx";
import { ADMIN_DOCTOR_PAGE_MAX } from "../../../contract/constants.ts";
import type {
  AdminDoctorListQuery,
  AdminDoctorPage,
  StaffList,
  StaffRequest,
  StaffUpdate,
} from "../../../contract/admin.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("admin")];

const PAGE = "/admin/staff";

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = upstream(request, context);
  const [staff, doctors] = await Promise.all([
    api.get<StaffList>("/admin/staff"),
    // The doctors a receptionist may serve: the verified ones (a clinic has far fewer than a page).
    api.get<AdminDoctorPage>("/admin/doctors", {
      status: "verified",
      limit: ADMIN_DOCTOR_PAGE_MAX,
    } satisfies AdminDoctorListQuery),
  ]);
  const deactivating = new URL(request.url).searchParams.get("deactivate");
  return {
    staff: staff.staff,
    doctors: doctors.doctors.map((doctor) => ({ id: doctor.id, username: doctor.username })),
    deactivating: staff.staff.find((s) => s.id === deactivating && !s.deactivatedAt) ?? null,
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const api = upstream(request, context);
  const intent = formData.get("intent");
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;
  const name = String(formData.get("staffName") ?? "");
  if (intent === "doctors" || intent === "deactivate") {
    const id = String(formData.get("staffId") ?? "");
    const path = `/admin/staff/${encodeURIComponent(id)}`;
    const answer =
      intent === "doctors"
        ? await api.call("PUT", path, {
            body: { doctorIds: doctorIdsOf(formData) } satisfies StaffUpdate,
            idempotencyKey,
          })
        : await api.call("DELETE", path, { idempotencyKey });
    if (!answer.ok)
      return data(
        { form: intent, id, message: upstreamErrorKey(answer, "admin", "admin:staff.failed"), result: undefined },
        { status: answer.status || 502 },
      );
    return redirectWithToast(PAGE, {
      type: "success",
      message: intent === "doctors" ? "admin:staff.saved" : "admin:staff.deactivated",
      values: { name },
    });
  }
  const submission = parseWithZod(formData, { schema: staffSchema });
  if (submission.status !== "success")
    return data({ form: "create" as const, id: "", message: "", result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const answer = await api.call("POST", "/admin/staff", {
    body: { username: v.username, email: v.email, doctorIds: v.doctorIds } satisfies StaffRequest,
    idempotencyKey,
  });
  if (!answer.ok) {
    const taken = answer.status === 409;
    const reply = taken
      ? submission.reply({ fieldErrors: { email: ["admin:staff.emailTaken"] } })
      : submission.reply({ formErrors: [upstreamErrorKey(answer, "admin", "admin:staff.createFailed")] });
    return data({ form: "create" as const, id: "", message: "", result: reply }, { status: answer.status || 502 });
  }
  return redirectWithToast(PAGE, { type: "success", message: "admin:staff.created", values: { name: v.username } });
}

const doctorIdsOf = (formData: FormData) => formData.getAll("doctorIds").map(String).filter(Boolean);

// A refused change shows the staff as they are now.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

// The create form (conform's state and zod with it) loads after the page is interactive.
const loadForm = () => import("./staff-form.tsx");
const StaffForm = afterHydration(() => loadForm().then((m) => m.StaffForm));

export default function Staff({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const here = location.pathname + location.search;
  useEffect(() => {
    loadForm().catch(() => {});
  }, []);
  const failure = actionData && actionData.form !== "create" ? actionData : null;
  const created = actionData?.form === "create" ? (actionData.result as SubmissionResult | undefined) : undefined;
  const gone = d.deactivating;
  return (
    <section>
      <PageHeader title={t("admin:staff.title")} subtitle={t("admin:staff.subtitle")} />
      <div className="grid min-w-0 items-start gap-6 lg:grid-cols-2">
        <section className="card min-w-0 space-y-4">
          <StaffForm doctors={d.doctors} result={created} idempotencyKey={`${d.idempotencyKey}-create`} />
        </section>
        <section aria-labelledby="staff-title" className="min-w-0 space-y-4">
          <h2 id="staff-title" className="text-lg font-semibold">
            {t("admin:staff.listTitle")}
          </h2>
          {d.staff.length === 0 ? <p className="card text-sm text-slate-700">{t("admin:staff.empty")}</p> : null}
          <ul className="space-y-4">
            {d.staff.map((s) => (
              <li key={s.id} className="card min-w-0 space-y-3">
                <div className="min-w-0">
                  <h3 className="font-semibold break-words">{s.username}</h3>
                  <p className="text-sm break-words text-slate-700">{s.email}</p>
                  <p className="text-sm text-slate-700">
                    {s.deactivatedAt
                      ? t("admin:staff.inactive")
                      : s.invitationAccepted
                        ? t("admin:staff.active")
                        : t("admin:staff.invited")}
                  </p>
                </div>
                {failure?.id === s.id ? <FormAlert message={failure.message} /> : null}
                {!s.deactivatedAt ? (
                  <>
                    <Form
                      method="post"
                      preventScrollReset
                      className="space-y-3"
                      aria-label={t("admin:staff.doctorsOf", { name: s.username })}
                    >
                      <input type="hidden" name="staffId" value={s.id} />
                      <input type="hidden" name="staffName" value={s.username} />
                      <input type="hidden" name="idempotencyKey" value={`${d.idempotencyKey}-${s.id}-doctors`} />
                      <DoctorChoice
                        doctors={d.doctors}
                        chosen={s.doctors.map((doctor) => doctor.id)}
                        idPrefix={`staff-${s.id}`}
                      />
                      <SubmitButton name="intent" value="doctors" className="btn-secondary">
                        {t("admin:staff.save")}
                      </SubmitButton>
                    </Form>
                    <Link
                      to={withParams(here, { deactivate: s.id })}
                      preventScrollReset
                      className="btn-secondary"
                      aria-label={t("admin:staff.deactivateNamed", { name: s.username })}
                    >
                      {t("admin:staff.deactivate")}
                    </Link>
                  </>
                ) : (
                  <p className="text-sm text-slate-700">
                    {s.doctors.map((doctor) => t("admin:staff.doctorName", { name: doctor.username })).join(", ")}
                  </p>
                )}
              </li>
            ))}
          </ul>
        </section>
      </div>
      {gone ? (
        <Dialog
          title={t("admin:staff.deactivateTitle", { name: gone.username })}
          closeTo={withParams(here, { deactivate: null })}
        >
          <p className="mb-4 text-sm text-slate-800">{t("admin:staff.deactivateWarning")}</p>
          {failure?.id === gone.id ? <FormAlert message={failure.message} className="mb-4" /> : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Link to={withParams(here, { deactivate: null })} preventScrollReset className="btn-secondary">
              {t("admin:staff.keep")}
            </Link>
            <ActionForm
              intent="deactivate"
              field="staffId"
              id={gone.id}
              idempotencyKey={`${d.idempotencyKey}-${gone.id}-deactivate`}
              className="btn-danger"
              values={{ staffName: gone.username }}
            >
              {t("admin:staff.confirmDeactivate")}
            </ActionForm>
          </div>
        </Dialog>
      ) : null}
    </section>
  );
}
