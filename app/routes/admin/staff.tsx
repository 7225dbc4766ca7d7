// The front desk's staff (docs/product.md, The front desk): the receptionists, each with the doctors
// they serve; the admin creates one (name, e-mail, doctors among the verified ones: an invitation
// mail carries the code that sets their password), changes the doctors served in a dialog
// (?edit=<id>), and deactivates one after a confirmation (?deactivate=<id>): dialogs addressed by the
// URL, so it works without JavaScript. A clinic may have thousands of doctors: the doctor choice
// shows one page of them, found by name (?doctor=), and always the ones already chosen.
import { useEffect } from "react";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, useLocation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/staff";
import { useTranslation } from "../../i18n.ts";
import { requireUser, upstream } from "../../auth.server.ts";
import { afterHydration, loadWhenUserActs } from "../../after-hydration.ts";
import { pageNumber, withParams } from "../../url.ts";
import { PageHeader } from "../../components/page.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { redirectWithToast } from "../../toast.server.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import { staffSchema } from "./staff-schema.ts";
import { DoctorSearchForm, type DoctorsFound } from "./doctor-choice.tsx";
import { ADMIN_DOCTOR_PAGE_SIZE, ADMIN_DOCTOR_SEARCH_MAX, STAFF_PAGE_SIZE } from "../../../contract/constants.ts";
import type {
  AdminDoctorListQuery,
  AdminDoctorPage,
  StaffList,
  StaffListQuery,
  StaffMember,
  StaffRequest,
  StaffUpdate,
} from "../../../contract/admin.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("admin")];

const PAGE = "/admin/staff";

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = upstream(request, context);
  const params = new URL(request.url).searchParams;
  const search = (params.get("doctor") ?? "").trim().slice(0, ADMIN_DOCTOR_SEARCH_MAX);
  const [staff, doctors] = await Promise.all([
    api.get<StaffList>("/admin/staff", {
      page: pageNumber(params.get("page")),
      limit: STAFF_PAGE_SIZE,
    } satisfies StaffListQuery),
    // One page of the verified doctors (those a receptionist may serve), found by name if asked.
    api.get<AdminDoctorPage>("/admin/doctors", {
      status: "verified",
      q: search,
      limit: ADMIN_DOCTOR_PAGE_SIZE,
    } satisfies AdminDoctorListQuery),
  ]);
  // The receptionist a dialog is open on, read by id: they may be on another page of the list.
  const active = async (id: string | null) => {
    if (!id) return null;
    const member = await api.call<StaffMember>("GET", `/admin/staff/${encodeURIComponent(id)}`);
    return member.ok && !member.data.deactivatedAt ? member.data : null;
  };
  const [editing, deactivating] = await Promise.all([active(params.get("edit")), active(params.get("deactivate"))]);
  return {
    staff: staff.staff,
    page: staff.page,
    totalPages: staff.totalPages,
    found: {
      doctors: doctors.doctors.map((doctor) => ({ id: doctor.id, username: doctor.username })),
      search,
      more: doctors.total > doctors.doctors.length,
    } satisfies DoctorsFound,
    editing,
    deactivating,
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

// The dialogs (doctors served, deactivation) load when one is open, or at the first act.
const loadDialogs = () => import("./staff-dialogs.tsx");
const DoctorsDialog = afterHydration(() => loadDialogs().then((m) => m.DoctorsDialog));
const DeactivateDialog = afterHydration(() => loadDialogs().then((m) => m.DeactivateDialog));

/** The id of the create form's doctor search (a GET form). */
const NEW_SEARCH = "staff-new-doctor-search";

export default function Staff({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const here = location.pathname + location.search;
  useEffect(() => {
    // Fetched at the user's first act on the page (after-hydration.ts).
    loadWhenUserActs(loadForm);
    loadWhenUserActs(loadDialogs);
  }, []);
  const failure = actionData && actionData.form !== "create" ? actionData : null;
  const created = actionData?.form === "create" ? (actionData.result as SubmissionResult | undefined) : undefined;
  // A search keeps the page's other parameters (the open dialog).
  const keep = Object.fromEntries([...new URLSearchParams(location.search)].filter(([name]) => name !== "doctor"));
  const editing = d.editing;
  const gone = d.deactivating;
  const closeEdit = withParams(here, { edit: null, doctor: null });
  return (
    <section>
      <PageHeader title={t("admin:staff.title")} subtitle={t("admin:staff.subtitle")} />
      <div className="grid min-w-0 items-start gap-6 lg:grid-cols-2">
        <section className="card min-w-0 space-y-4">
          <StaffForm
            found={d.found}
            searchForm={NEW_SEARCH}
            result={created}
            idempotencyKey={`${d.idempotencyKey}-create`}
          />
          <DoctorSearchForm id={NEW_SEARCH} keep={keep} />
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
                  <p className="text-sm break-words text-slate-700">
                    {s.doctors.length
                      ? t("admin:staff.serves", {
                          names: s.doctors
                            .map((doctor) => t("admin:staff.doctorName", { name: doctor.username }))
                            .join(", "),
                        })
                      : t("admin:staff.servesNone")}
                  </p>
                </div>
                {failure?.id === s.id && failure.id !== editing?.id && failure.id !== gone?.id ? (
                  <FormAlert message={failure.message} />
                ) : null}
                {!s.deactivatedAt ? (
                  <div className="flex flex-wrap gap-2">
                    <Link
                      to={withParams(here, { edit: s.id, deactivate: null, doctor: null })}
                      preventScrollReset
                      className="btn-secondary"
                      aria-label={t("admin:staff.changeNamed", { name: s.username })}
                    >
                      {t("admin:staff.change")}
                    </Link>
                    <Link
                      to={withParams(here, { deactivate: s.id, edit: null, doctor: null })}
                      preventScrollReset
                      className="btn-secondary"
                      aria-label={t("admin:staff.deactivateNamed", { name: s.username })}
                    >
                      {t("admin:staff.deactivate")}
                    </Link>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          <Pagination
            page={d.page}
            totalPages={d.totalPages}
            linkTo={(page) => withParams(here, { page: page > 1 ? String(page) : null, edit: null, deactivate: null })}
            label={t("admin:staff.pagination")}
          />
        </section>
      </div>
      {editing ? (
        <DoctorsDialog
          member={editing}
          found={d.found}
          failure={failure?.id === editing.id ? failure.message : null}
          closeTo={closeEdit}
          keep={keep}
          idempotencyKey={`${d.idempotencyKey}-${editing.id}-doctors`}
        />
      ) : null}
      {gone ? (
        <DeactivateDialog
          member={gone}
          failure={failure?.id === gone.id ? failure.message : null}
          closeTo={withParams(here, { deactivate: null })}
          idempotencyKey={`${d.idempotencyKey}-${gone.id}-deactivate`}
        />
      ) : null}
    </section>
  );
}
