// Consultations (docs/product.md, Screens and routes): real records with search, New (?new=1)
// and Edit (?edit=<id>) dialogs, More/Less as <details>, and Export PDF as a print-ready page. A
// card says how many of its patient's appointments were missed in the last 12 months, if any.
import { useEffect } from "react";
import { afterHydration, loadWhenUserActs } from "../../after-hydration.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "../../i18n.ts";
import { data, Link, useLocation } from "react-router";
import type { Route } from "./+types/consultations";
import { pageOf, upstream } from "../../auth.server.ts";
import { pageNumber, withParams } from "../../url.ts";
import { Avatar } from "../../components/avatar.tsx";
import { formatDate } from "../../format.ts";
import { SearchForm } from "../../components/search-form.tsx";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";
import { PageHeader } from "../../components/page.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { redirectWithToast } from "../../toast.server.ts";
import { findConsultation, listConsultations, listPatients } from "./consultation.server.ts";
import type { PatientOption } from "../../../contract/doctor-profile.ts";
import type { Consultation, ConsultationCreate, ConsultationUpdate } from "../../../contract/consultation.ts";
import { consultationSchema } from "./consultation-schema.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const search = params.get("search")?.trim() ?? "";
  const api = upstream(request, context);
  const creating = params.get("new") === "1";
  const editId = params.get("edit");
  const page = pageNumber(params.get("page"));
  const [list, patients] = await Promise.all([
    listConsultations(api, search, page),
    creating ? listPatients(api) : Promise.resolve([] as PatientOption[]),
  ]);
  const editing = editId
    ? (list.consultations.find((c) => c.id === editId) ?? (await findConsultation(api, editId)))
    : null;
  return { search, list, patients, creating, editing, idempotencyKey: crypto.randomUUID() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const api = upstream(request, context);
  const id = String(formData.get("consultationId") ?? "");
  const submission = parseWithZod(formData, { schema: consultationSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const idempotencyKey = String(formData.get("idempotencyKey") ?? "") || undefined;
  const answer = id
    ? await api.call("PUT", `/consultation/${encodeURIComponent(id)}`, {
        body: submission.value satisfies ConsultationUpdate,
        idempotencyKey,
      })
    : await api.call("POST", "/consultation", { body: submission.value satisfies ConsultationCreate, idempotencyKey });
  if (!answer.ok)
    return data(
      {
        result: submission.reply({
          formErrors: [id ? "doctor:consultations.updateFailed" : "doctor:consultations.createFailed"],
        }),
      },
      { status: answer.status },
    );
  return redirectWithToast(withParams(pageOf(request), { new: null, edit: null }), {
    type: "success",
    message: id ? "doctor:consultations.updated" : "doctor:consultations.created",
  });
}

// The form in its dialog (and conform's form state) loads after the page is interactive: a page
// opened with its dialog in the URL renders it on the server as always and hydrates once the module
// has arrived (no Suspense boundary, so no fallback is ever shown); opening it later finds it loaded.
const loadConsultationForm = () => import("./consultation-form.tsx");
const ConsultationDialog = afterHydration(() => loadConsultationForm().then((m) => m.ConsultationDialog));

function ConsultationCard({ c, here }: { c: Consultation; here: string }) {
  const { t, i18n } = useTranslation();
  return (
    <li className="card flex flex-col gap-3">
      <div className="flex items-start gap-3">
        <Avatar name={c.patientName} url={c.patientAvatar} />
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold text-slate-900">{c.patientName}</h2>
          <p className="text-sm text-slate-700">
            {formatDate(c.date, i18n.language)} · {c.time}
          </p>
        </div>
        <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-800">
          {t(`doctor:consultationType.${c.type}`, { defaultValue: c.type })}
        </span>
      </div>
      {c.patientMissed > 0 ? (
        <p className="text-sm font-medium text-slate-900">
          {t("doctor:noShow.patientMissed", { count: c.patientMissed })}
        </p>
      ) : null}
      <p className="text-sm">
        <span className="font-medium text-slate-700">{t("doctor:consultations.diagnosis")}: </span>
        {c.diagnosis}
      </p>
      <details className="group text-sm">
        <summary className="link flex min-h-6 cursor-pointer list-none items-center">
          <span className="group-open:hidden">{t("doctor:consultations.more")}</span>
          <span className="hidden group-open:inline">{t("doctor:consultations.less")}</span>
        </summary>
        <div className="mt-2 space-y-2">
          <p>
            <span className="font-medium text-slate-700">{t("doctor:consultations.notes")}: </span>
            {c.notes || t("doctor:consultations.none")}
          </p>
          <div>
            <p className="font-medium text-slate-700">{t("doctor:consultations.prescription")}</p>
            {c.prescription.length ? (
              <ul className="list-disc pl-5">
                {c.prescription.map((item, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list rendered once; two lines may be equal
                  <li key={i}>{item}</li>
                ))}
              </ul>
            ) : (
              <p>{t("doctor:consultations.none")}</p>
            )}
          </div>
        </div>
      </details>
      <div className="flex flex-wrap gap-2">
        <Link
          to={withParams(here, { edit: c.id, new: null })}
          preventScrollReset
          className="btn-secondary"
          aria-label={t("doctor:consultations.editFor", { name: c.patientName })}
        >
          {t("doctor:consultations.edit")}
        </Link>
        <a
          href={`/doctor/consultations/${c.id}/print`}
          className="btn-secondary"
          aria-label={t("doctor:consultations.exportFor", { name: c.patientName })}
        >
          {t("doctor:consultations.export")}
        </a>
      </div>
    </li>
  );
}

export default function Consultations({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  useEffect(() => {
    // Fetched at the user's first act on the page, so it shows at once when opened; one that fails is
    // tried again when shown (after-hydration.ts).
    loadWhenUserActs(loadConsultationForm);
  }, []);
  const location = useLocation();
  const here = location.pathname + location.search;
  const closeTo = withParams(here, { new: null, edit: null });
  const result = actionData?.result;
  return (
    <section>
      <PageHeader
        title={t("doctor:consultations.title")}
        subtitle={t("doctor:consultations.subtitle")}
        actions={
          <Link to={withParams(here, { new: "1", edit: null })} preventScrollReset className="btn-primary">
            {t("doctor:consultations.new")}
          </Link>
        }
      />
      <div className="card mb-4">
        <SearchForm
          label={t("doctor:consultations.searchLabel")}
          applyLabel={t("doctor:filters.apply")}
          placeholder={t("doctor:consultations.searchPlaceholder")}
          search={d.search}
        />
      </div>
      <ClinicTimeZone className="mb-2 text-xs text-slate-600" />
      {d.list.consultations.length === 0 ? (
        <p className="card text-slate-700">
          {t(d.search ? "doctor:consultations.emptySearch" : "doctor:consultations.empty")}
        </p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2" aria-label={t("doctor:consultations.title")}>
          {d.list.consultations.map((c) => (
            <ConsultationCard key={c.id} c={c} here={here} />
          ))}
        </ul>
      )}
      <Pagination
        page={d.list.page}
        totalPages={d.list.totalPages}
        linkTo={(page) => withParams(here, { page: String(page), new: null, edit: null })}
      />
      {d.creating ? (
        <ConsultationDialog
          title={t("doctor:consultations.newTitle")}
          consultation={null}
          patients={d.patients}
          idempotencyKey={d.idempotencyKey}
          closeTo={closeTo}
          result={result}
        />
      ) : null}
      {d.editing ? (
        <ConsultationDialog
          title={t("doctor:consultations.editTitle")}
          consultation={d.editing}
          patients={[]}
          idempotencyKey={d.idempotencyKey}
          closeTo={closeTo}
          result={result}
        />
      ) : null}
    </section>
  );
}
