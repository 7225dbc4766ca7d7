// Doctor verification (docs/product.md, Where we depart from the original screens): doctors awaiting verification, each approved with the
// specialities the admin assigns, or rejected with an optional reason.
import { useTranslation } from "../../i18n.ts";
import { data, Form, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/index";
import { requireUser, upstream } from "../../auth.server.ts";
import { formatDate, specialityName } from "../../format.ts";
import { Field, FormAlert, SubmitButton } from "../../components/forms.tsx";
import { PageHeader } from "../../components/page.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { pageNumber, positiveId } from "../../url.ts";
import { redirectWithToast } from "../../toast.server.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import type { AdminDoctorListQuery, AdminDoctorPage, Approval, Rejection } from "../../../contract/admin.ts";
import { ADMIN_DOCTOR_PAGE_SIZE } from "../../../contract/constants.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("admin")];

const listOf = <T,>(body: unknown, key: string): T[] =>
  Array.isArray(body) ? (body as T[]) : ((body as Record<string, T[]> | null)?.[key] ?? []);

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = upstream(request, context);
  const page = pageNumber(new URL(request.url).searchParams.get("page"));
  const [doctors, specialities] = await Promise.all([
    api.get<AdminDoctorPage>("/admin/doctors", {
      status: "pending",
      page,
      limit: ADMIN_DOCTOR_PAGE_SIZE,
    } satisfies AdminDoctorListQuery),
    api.get<unknown>("/speciality"),
  ]);
  return {
    doctors: doctors.doctors,
    page: doctors.page,
    totalPages: doctors.totalPages,
    specialities: listOf<{ id: number; name: string; nameFr?: string }>(specialities, "specialities"),
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const intent = formData.get("intent") === "reject" ? "reject" : "approve";
  const doctorId = String(formData.get("doctorId") ?? "");
  const name = String(formData.get("doctorName") ?? "");
  const body =
    intent === "approve"
      ? ({ specialityIds: formData.getAll("specialityIds").map(Number).filter(Number.isInteger) } satisfies Approval)
      : ({ reason: String(formData.get("reason") ?? "").trim() || undefined } satisfies Rejection);
  const answer = await upstream(request, context).call(
    "POST",
    `/admin/doctors/${encodeURIComponent(doctorId)}/${intent}`,
    {
      body,
      idempotencyKey: String(formData.get("idempotencyKey") ?? "") || undefined,
    },
  );
  // A refusal stays on the page, said on that doctor's card (docs/forms.md); the list is read again,
  // since a registration another admin decided has left it.
  if (!answer.ok) {
    const failure: AdminFailure = {
      doctorId,
      name,
      message: upstreamErrorKey(answer, "admin", `admin:errors.${intent}Failed`),
    };
    return data({ failure }, { status: answer.status || 502 });
  }
  // Back to the page the admin acted on (a decided doctor leaves the queue, so it may now be short).
  const page = positiveId(new URL(request.url).searchParams.get("page"));
  return redirectWithToast(page && page > 1 ? `/admin?page=${page}` : "/admin", {
    type: "success",
    message: intent === "approve" ? "admin:toast.approved" : "admin:toast.rejected",
    values: { name },
  });
}

/** An approval or rejection the API refused, shown on the card it came from until the next page. */
interface AdminFailure {
  doctorId: string;
  name: string;
  message: string;
}

// A refused decision must show the queue as it is now (JavaScript on as off).
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

export default function AdminDoctors({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const failure = actionData?.failure ?? null;
  const alertOf = (doctorId: string) =>
    failure?.doctorId === doctorId ? <FormAlert message={failure.message} values={{ name: failure.name }} /> : null;
  // A doctor who left the queue meanwhile (decided by another admin) keeps a card of their own,
  // first, holding what happened.
  const gone = failure && !d.doctors.some((doctor) => doctor.id === failure.doctorId) ? failure : null;
  return (
    <section>
      <PageHeader title={t("admin:title")} subtitle={t("admin:subtitle")} />
      {d.doctors.length === 0 && !gone ? (
        <p className="card text-slate-700">{t("admin:empty")}</p>
      ) : (
        <ul className="space-y-4">
          {gone ? (
            <li className="card space-y-4">
              <h2 className="text-lg font-semibold">{gone.name}</h2>
              {alertOf(gone.doctorId)}
            </li>
          ) : null}
          {d.doctors.map((doctor) => (
            <li key={doctor.id} className="card space-y-4">
              <div>
                <h2 className="text-lg font-semibold">{doctor.username}</h2>
                <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
                  <dt className="font-medium text-slate-700">{t("admin:serial")}</dt>
                  <dd>{doctor.serial_number}</dd>
                  <dt className="font-medium text-slate-700">{t("admin:email")}</dt>
                  <dd>{doctor.email}</dd>
                  <dt className="font-medium text-slate-700">{t("admin:contact")}</dt>
                  <dd>{doctor.contact || t("admin:notProvided")}</dd>
                  <dt className="font-medium text-slate-700">{t("admin:registered")}</dt>
                  <dd>{formatDate(doctor.createdAt, i18n.language)}</dd>
                </dl>
              </div>
              <div className="grid gap-4 md:grid-cols-2">
                <Form
                  method="post"
                  className="space-y-3 rounded-md border border-slate-200 p-3"
                  aria-label={t("admin:approveFor", { name: doctor.username })}
                >
                  <input type="hidden" name="doctorId" value={doctor.id} />
                  <input type="hidden" name="doctorName" value={doctor.username} />
                  <input type="hidden" name="idempotencyKey" value={`${d.idempotencyKey}-${doctor.id}-approve`} />
                  <fieldset>
                    <legend className="label">{t("admin:specialities")}</legend>
                    <div className="grid gap-1 sm:grid-cols-2">
                      {d.specialities.map((s) => (
                        <label key={s.id} className="flex items-center gap-2 text-sm">
                          <input type="checkbox" name="specialityIds" value={s.id} />
                          {specialityName(s, i18n.language)}
                        </label>
                      ))}
                    </div>
                  </fieldset>
                  <SubmitButton name="intent" value="approve">
                    {t("admin:approve")}
                  </SubmitButton>
                </Form>
                <Form
                  method="post"
                  className="space-y-3 rounded-md border border-slate-200 p-3"
                  aria-label={t("admin:rejectFor", { name: doctor.username })}
                >
                  <input type="hidden" name="doctorId" value={doctor.id} />
                  <input type="hidden" name="doctorName" value={doctor.username} />
                  <input type="hidden" name="idempotencyKey" value={`${d.idempotencyKey}-${doctor.id}-reject`} />
                  <Field label={t("admin:reason")} name="reason" id={`reason-${doctor.id}`} maxLength={500} />
                  <SubmitButton className="btn-danger" name="intent" value="reject">
                    {t("admin:reject")}
                  </SubmitButton>
                </Form>
              </div>
              {alertOf(doctor.id)}
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={d.page}
        totalPages={d.totalPages}
        linkTo={(page) => `/admin?page=${page}`}
        label={t("admin:pagination")}
      />
    </section>
  );
}
