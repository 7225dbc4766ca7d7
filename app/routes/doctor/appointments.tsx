// The doctor's appointments (docs/product.md, Screens and routes): tabs 'assigned to me' and 'open requests' as links,
// a GET filter form, cards with a URL-addressable details dialog, and one form per action.
import { useEffect } from "react";
import { afterHydration, loadWhenUserActs } from "../../after-hydration.ts";
import { useTranslation } from "../../i18n.ts";
import { Link, useLocation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/appointments";
import { useVerification } from "./verification.ts";
import { getUser, upstream } from "../../auth.server.ts";
import { pageNumber } from "../../url.ts";
import { withParams } from "../../url.ts";
import { AppointmentCard, patientName } from "../../components/doctor/appointment-card.tsx";
import { SearchForm } from "../../components/search-form.tsx";
import { APPOINTMENT_STATUSES } from "../../../contract/constants.ts";
import type {
  DoctorAppointment as Appointment,
  DoctorAppointmentPage as AppointmentPage,
} from "../../../contract/appointment.ts";
import { ActionForm } from "../../components/submit-button.tsx";
import { PageHeader } from "../../components/page.tsx";
import { Pagination } from "../../components/pagination.tsx";
import {
  appointmentAction,
  listedAppointment,
  rescheduleDayOf,
  type ActionFailure,
  type ListedAppointment,
} from "./appointments.server.ts";
import { clinicToday } from "../../clinic.server.ts";
import { getLanguage } from "../../i18n.server.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";
import { videoLinkOf } from "../../calendar.server.ts";

const PAGE_SIZE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const tab = params.get("tab") === "open" ? "open" : "assigned";
  const search = params.get("search")?.trim() ?? "";
  const status = (APPOINTMENT_STATUSES as readonly string[]).includes(params.get("status") ?? "")
    ? params.get("status")!
    : "";
  const page = pageNumber(params.get("page"));
  const api = upstream(request, context);
  const list = await api.get<AppointmentPage>("/doctor/doctor_appointments", {
    category: tab === "open" ? "random" : "direct",
    search,
    status,
    page,
    limit: PAGE_SIZE,
  });
  const findOne = async (id: string | null) => {
    if (!id) return null;
    const inList = list.appointments.find((a) => a.id === id);
    if (inList) return inList;
    const one = await api.call<Appointment>("GET", `/appointment/${encodeURIComponent(id)}`);
    return one.ok ? one.data : null;
  };
  const [selected, cancelling] = await Promise.all([findOne(params.get("appointment")), findOne(params.get("cancel"))]);
  const doctorId = getUser(context).id;
  const language = getLanguage(context);
  const editing = Boolean(selected && params.get("edit") === "1");
  const today = clinicToday();
  const [video, rescheduleDay] = await Promise.all([
    videoLinkOf(api, selected, selected?.doctorId === doctorId),
    editing && selected ? rescheduleDayOf(api, selected, params.get("date"), today) : null,
  ]);
  const now = Date.now();
  return {
    tab,
    search,
    status,
    list: {
      appointments: list.appointments.map((a) => listedAppointment(a, language)),
      total: list.total,
      page: list.page,
      totalPages: list.totalPages,
    },
    selected,
    cancelling: cancelling && listedAppointment(cancelling, language),
    editing,
    rescheduleDay,
    // Started appointments can be marked completed or missed; computed here so server and browser agree.
    started: Object.fromEntries(
      [...list.appointments, ...(selected ? [selected] : []), ...(cancelling ? [cancelling] : [])].map((a) => [
        a.id,
        Date.parse(a.time) <= now,
      ]),
    ),
    today,
    idempotencyKey: crypto.randomUUID(),
    doctorId,
    video,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  return appointmentAction({
    request,
    formData,
    api: upstream(request, context),
    doctorId: getUser(context).id,
    today: clinicToday(),
  });
}

// A refused action (409: the patient changed the appointment meanwhile) must show the cards as they are now.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

type Data = Route.ComponentProps["loaderData"];
type ActionData = Route.ComponentProps["actionData"];

// The details and cancel dialogs load after the page is interactive, and the reschedule form (with
// conform's form state) after them: a page opened with one in its URL renders it on the server as
// always, and hydrates once the module has arrived (no Suspense boundary, so nothing shows a
// fallback); opening one later finds it loaded, or waits for it on the page it was opened from
// (docs/decisions/0003-first-load-javascript-budget.md).
const loadDialogs = () => import("./appointment-dialogs.tsx");
const DetailsDialog = afterHydration(() => loadDialogs().then((m) => m.DetailsDialog));
const CancelDialog = afterHydration(() => loadDialogs().then((m) => m.CancelDialog));
// A refused action's note shows only after the doctor acted: it loads after hydration too (a page
// rendered with one hydrates once it has come).
const loadFormAlert = () => import("../../components/form-alert.tsx");
const FormAlert = afterHydration(() => loadFormAlert().then((m) => m.FormAlert));

const failureOf = (actionData: ActionData) => (actionData && "failure" in actionData ? actionData.failure : null);

/** What went wrong with the user's last action on this appointment, where they acted (docs/forms.md). */
function FailureAlert({ failure, appointmentId }: { failure: ActionFailure | null; appointmentId: string }) {
  const { t } = useTranslation();
  if (!failure || failure.appointmentId !== appointmentId) return null;
  return (
    <FormAlert
      message={failure.message}
      values={{ status: failure.status ? t(`doctor:status.${failure.status}`) : "" }}
      className="w-full"
    />
  );
}

/** A pending appointment still to come, assigned to this doctor, may be cancelled (after confirmation). */
const cancellable = (a: Pick<Appointment, "id" | "status" | "doctorId">, data: Data) =>
  a.status === "pending" && a.doctorId === data.doctorId && !data.started[a.id];

function useVerified() {
  return useVerification() === "verified";
}

/** The actions a doctor may take on an assigned appointment (docs/product.md, Appointment states). */
function AssignedActions({ a, data, failure }: { a: ListedAppointment; data: Data; failure: ActionFailure | null }) {
  const { t } = useTranslation();
  const location = useLocation();
  const key = data.idempotencyKey;
  return (
    <>
      {a.status === "pending" ? (
        <>
          <ActionForm intent="confirm" field="appointmentId" id={a.id} idempotencyKey={key} className="btn-primary">
            {t("doctor:appointments.confirm")}
          </ActionForm>
          {cancellable(a, data) ? (
            // Cancelling asks first: a confirmation dialog, addressable so it works without JavaScript.
            <Link
              to={withParams(location.pathname + location.search, { cancel: a.id, appointment: null, edit: null })}
              preventScrollReset
              className="btn-danger"
              aria-label={t("doctor:cancel.openFor", { name: patientName(a, t) })}
            >
              {t("doctor:appointments.cancel")}
            </Link>
          ) : null}
        </>
      ) : null}
      {a.status === "confirmed" && data.started[a.id] ? (
        <>
          <ActionForm intent="complete" field="appointmentId" id={a.id} idempotencyKey={key} className="btn-primary">
            {t("doctor:appointments.complete")}
          </ActionForm>
          <ActionForm intent="missed" field="appointmentId" id={a.id} idempotencyKey={key} className="btn-secondary">
            {t("doctor:noShow.markMissed")}
          </ActionForm>
        </>
      ) : null}
      <FailureAlert failure={failure} appointmentId={a.id} />
    </>
  );
}

function hasProposed(a: Pick<Appointment, "myProposal" | "status" | "doctorId">, doctorId: string) {
  return Boolean(a.myProposal) || (a.status === "proposed" && a.doctorId === doctorId);
}

function OpenActions({ a, data, failure }: { a: ListedAppointment; data: Data; failure: ActionFailure | null }) {
  const { t } = useTranslation();
  const alert = <FailureAlert failure={failure} appointmentId={a.id} />;
  if (hasProposed(a, data.doctorId)) {
    return (
      <>
        <span className="rounded-full bg-purple-100 px-3 py-1 text-sm font-semibold text-purple-900">
          {t("doctor:appointments.proposedByYou")}
        </span>
        {alert}
      </>
    );
  }
  if (a.status !== "pending" && a.status !== "proposed") return alert;
  if (a.slotHeld)
    return (
      <>
        <p className="text-sm text-slate-700">{t("doctor:appointments.slotHeld")}</p>
        {alert}
      </>
    );
  return (
    <>
      <ActionForm
        intent="propose"
        field="appointmentId"
        id={a.id}
        idempotencyKey={data.idempotencyKey}
        className="btn-primary"
      >
        {t("doctor:appointments.propose")}
      </ActionForm>
      {alert}
    </>
  );
}

export default function DoctorAppointments({ loaderData: data, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  useEffect(() => {
    // Fetched at the user's first act on the page, so it shows at once when opened; one that fails is
    // tried again when shown (after-hydration.ts).
    loadWhenUserActs(() => loadDialogs().then((m) => m.loadRescheduleForm()));
    loadWhenUserActs(loadFormAlert);
  }, []);
  const failure = failureOf(actionData);
  const location = useLocation();
  const verified = useVerified();
  const here = location.pathname + location.search;
  const { tab, list } = data;
  const filtersActive = Boolean(data.search || data.status);
  const tabLink = (target: string) => `?tab=${target}`;
  const pageLink = (page: number) =>
    withParams(here, { page: String(page), appointment: null, edit: null, cancel: null });
  return (
    <section>
      <PageHeader
        title={t("doctor:appointments.title")}
        subtitle={t("doctor:appointments.subtitle")}
        actions={
          <Link
            to={withParams(here, { appointment: null, edit: null, cancel: null })}
            className="btn-secondary"
            reloadDocument={false}
          >
            {t("doctor:filters.refresh")}
          </Link>
        }
      />
      <nav aria-label={t("doctor:appointments.tabs")} className="mb-4 flex gap-2 border-b border-slate-200">
        {(["assigned", "open"] as const).map((key) => (
          <Link
            key={key}
            to={tabLink(key)}
            aria-current={tab === key ? "page" : undefined}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${tab === key ? "border-brand-600 text-brand-800" : "border-transparent text-slate-700 hover:text-slate-900"}`}
          >
            {t(`doctor:appointments.tab.${key}`)}
          </Link>
        ))}
      </nav>
      <div className="card mb-4">
        <SearchForm
          label={t("doctor:filters.search")}
          applyLabel={t("doctor:filters.apply")}
          placeholder={t("doctor:filters.searchPlaceholder")}
          search={data.search}
          hidden={{ tab }}
        >
          <div>
            <label htmlFor="status" className="label">
              {t("doctor:filters.status")}
            </label>
            <select key={data.status} id="status" name="status" className="input" defaultValue={data.status}>
              <option value="">{t("doctor:filters.allStatuses")}</option>
              {APPOINTMENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`doctor:status.${s}`)}
                </option>
              ))}
            </select>
          </div>
        </SearchForm>
        {filtersActive ? (
          <Link to={tabLink(tab)} className="link mt-2 inline-block text-sm">
            {t("doctor:filters.clear")}
          </Link>
        ) : null}
      </div>
      <p className="mb-2 text-sm text-slate-700" role="status">
        {t("doctor:appointments.count", { count: list.total })}
      </p>
      <ClinicTimeZone className="mb-2 text-xs text-slate-600" />
      {list.appointments.length === 0 ? (
        <p className="card text-slate-700">
          {t(tab === "open" ? "doctor:appointments.emptyOpen" : "doctor:appointments.emptyAssigned")}
        </p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2" aria-label={t(`doctor:appointments.tab.${tab}`)}>
          {list.appointments.map((a) => (
            <AppointmentCard
              key={a.id}
              appointment={a}
              detailsTo={withParams(here, { appointment: a.id, edit: null, cancel: null })}
              actions={
                verified ? (
                  tab === "open" ? (
                    <OpenActions a={a} data={data} failure={failure} />
                  ) : (
                    <AssignedActions a={a} data={data} failure={failure} />
                  )
                ) : null
              }
            />
          ))}
        </ul>
      )}
      <Pagination page={list.page} totalPages={list.totalPages} linkTo={pageLink} />
      {data.selected ? (
        <DetailsDialog
          key={data.selected.id}
          a={data.selected}
          name={patientName(data.selected, t)}
          data={data}
          result={actionData && "result" in actionData ? actionData.result : undefined}
          actions={
            !verified ? null : data.selected.doctorId === data.doctorId ? (
              <AssignedActions a={data.selected} data={data} failure={failure} />
            ) : !data.selected.doctorId ? (
              <OpenActions a={data.selected} data={data} failure={failure} />
            ) : null
          }
        />
      ) : null}
      {data.cancelling ? (
        <CancelDialog
          key={data.cancelling.id}
          a={data.cancelling}
          name={patientName(data.cancelling, t)}
          alert={<FailureAlert failure={failure} appointmentId={data.cancelling.id} />}
          confirm={
            cancellable(data.cancelling, data) ? (
              <ActionForm
                intent="cancel"
                field="appointmentId"
                id={data.cancelling.id}
                idempotencyKey={data.idempotencyKey}
                className="btn-danger"
              >
                {t("doctor:cancel.confirm")}
              </ActionForm>
            ) : null
          }
        />
      ) : null}
    </section>
  );
}
