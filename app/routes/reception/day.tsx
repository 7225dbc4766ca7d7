// The front desk's day sheet (docs/product.md, The front desk): every appointment of the doctors the
// receptionist serves on one day (today unless a GET form asks for another), with the patient's name
// and phone, the state in the clinic's words and the arrival; 'Arrived' and, after the start,
// 'No-show' per row; the walk-in form. With JavaScript the sheet reads itself again every 30 s.
import { Form, Link, useLocation, useNavigate, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/day";
import { useHydrated, useTranslation } from "../../i18n.ts";
import { upstream } from "../../auth.server.ts";
import { clinicClock, clinicToday } from "../../clinic.server.ts";
import { formatDate } from "../../format.ts";
import { withParams } from "../../url.ts";
import { personName } from "../../person.ts";
import { useAutoRefresh } from "../../auto-refresh.ts";
import { PageHeader } from "../../components/page.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { ActionForm, SubmitButton } from "../../components/submit-button.tsx";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";
import { CancelDialog } from "../../components/cancel-dialog.tsx";
import { Dialog } from "../../components/dialog.tsx";
import { dayAction, daySheetOf, rescheduleDayOf, type DayFailure, type SheetRow } from "./day.server.ts";
import { byDayPart } from "../../day-parts.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const today = clinicToday();
  const api = upstream(request, context);
  const sheet = await daySheetOf(api, params.get("date"), today);
  const changeable = (id: string | null) => (id && sheet.rows.find((row) => row.id === id && row.cancellable)) || null;
  const rescheduling = changeable(params.get("reschedule"));
  return {
    ...sheet,
    today,
    cancelling: changeable(params.get("cancel")),
    rescheduling,
    rescheduleDay: rescheduling
      ? await rescheduleDayOf(api, rescheduling, params.get("rescheduleDate"), sheet.date, today)
      : null,
    walkInPhone: params.get("walkInPhone") ?? "",
    updatedAt: clinicClock(new Date()),
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return dayAction(request, upstream(request, context), await request.formData(), clinicToday());
}

// After a refused action the sheet is read again, to show the appointment as it is now.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

type Data = Route.ComponentProps["loaderData"];

function Row({ row, d, failure }: { row: SheetRow; d: Data; failure: DayFailure | null }) {
  const { t } = useTranslation();
  const location = useLocation();
  const here = location.pathname + location.search;
  const name = personName(row.patient.name, t);
  return (
    <li className="card min-w-0 space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <p className="min-w-0 break-words">
          <span className="font-semibold whitespace-nowrap text-slate-900">
            {row.walkIn ? t("reception:day.walkIn") : row.timeRange}
          </span>{" "}
          <span className="text-slate-900">{name}</span>
        </p>
        <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-900 ring-1 ring-slate-600">
          {t(`reception:status.${row.state}`)}
        </span>
      </div>
      {row.patient.phone ? (
        <p className="text-sm">
          <a className="link-alone" href={`tel:${row.patient.phone}`}>
            {row.patient.phoneShown}
          </a>
        </p>
      ) : null}
      {row.arrival ? (
        <p className="text-sm text-slate-700">{t("reception:day.arrivedAt", { time: row.arrival })}</p>
      ) : null}
      {failure?.id === row.id ? <FormAlert message={failure.message} /> : null}
      <div className="flex flex-wrap gap-2">
        {row.canArrive ? (
          <ActionForm
            intent="arrival"
            field="appointmentId"
            id={row.id}
            idempotencyKey={`${d.idempotencyKey}-${row.id}-arrival`}
            className="btn-primary"
            values={{ patientName: name }}
          >
            {t("reception:day.arrived")}
            <span className="sr-only">: {name}</span>
          </ActionForm>
        ) : null}
        {row.canMiss ? (
          <ActionForm
            intent="noShow"
            field="appointmentId"
            id={row.id}
            idempotencyKey={`${d.idempotencyKey}-${row.id}-noShow`}
            className="btn-secondary"
            values={{ patientName: name }}
          >
            {t("reception:day.noShow")}
            <span className="sr-only">: {name}</span>
          </ActionForm>
        ) : null}
        {row.cancellable ? (
          <Link
            to={withParams(here, { reschedule: row.id, cancel: null })}
            preventScrollReset
            className="btn-secondary"
            aria-label={t("reception:manage.rescheduleFor", { name })}
          >
            {t("reception:manage.reschedule")}
          </Link>
        ) : null}
        {row.cancellable ? (
          <Link
            to={withParams(here, { cancel: row.id, reschedule: null })}
            preventScrollReset
            className="btn-secondary"
            aria-label={t("reception:manage.cancelFor", { name: name })}
          >
            {t("reception:manage.cancel")}
          </Link>
        ) : null}
      </div>
    </li>
  );
}

function WalkInForm({ d, failure }: { d: Data; failure: DayFailure | null }) {
  const { t } = useTranslation();
  const walkIn = failure?.id === "walkIn" ? failure : null;
  return (
    <Form method="post" preventScrollReset className="card space-y-3" aria-labelledby="walk-in-title">
      <h2 id="walk-in-title" className="text-lg font-semibold">
        {t("reception:walkIn.title")}
      </h2>
      <p className="text-sm text-slate-700">{t("reception:walkIn.hint")}</p>
      {walkIn ? (
        <div className="space-y-2">
          <FormAlert message={walkIn.message} />
          {walkIn.createFor !== undefined ? (
            <Link
              className="link-alone text-sm"
              to={withParams("/reception/patients", { phone: walkIn.createFor || null })}
            >
              {t("reception:walkIn.createRecord")}
            </Link>
          ) : null}
        </div>
      ) : null}
      <input type="hidden" name="idempotencyKey" value={`${d.idempotencyKey}-walkIn`} />
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="min-w-0">
          <label htmlFor="walk-in-phone" className="label">
            {t("reception:walkIn.phone")}
          </label>
          <input
            id="walk-in-phone"
            name="phone"
            type="tel"
            autoComplete="off"
            required
            className="input"
            defaultValue={walkIn?.phone ?? d.walkInPhone}
          />
        </div>
        <div className="min-w-0">
          <label htmlFor="walk-in-doctor" className="label">
            {t("reception:walkIn.doctor")}
          </label>
          <select id="walk-in-doctor" name="doctorId" required className="input" defaultValue={walkIn?.doctorId ?? ""}>
            <option value="">{t("reception:walkIn.chooseDoctor")}</option>
            {d.doctors.map((doctor) => (
              <option key={doctor.id} value={doctor.id}>
                {t("reception:day.doctorHeading", { name: doctor.username })}
              </option>
            ))}
          </select>
        </div>
      </div>
      <SubmitButton name="intent" value="walkIn">
        {t("reception:walkIn.submit")}
      </SubmitButton>
    </Form>
  );
}

/**
 * The desk's reschedule dialog (?reschedule=<id>): a date and a start time of the doctor's plan that
 * day, in the parts of the day. The day shown is ?rescheduleDate= (else the sheet's); 'Show the
 * times' (with JavaScript, leaving the date field) shows another day's.
 */
function RescheduleDialog({ row, d, failure }: { row: SheetRow; d: Data; failure: DayFailure | null }) {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const here = location.pathname + location.search;
  const closeTo = withParams(here, { reschedule: null, rescheduleDate: null });
  const name = personName(row.patient.name, t);
  const refusal = failure?.id === row.id ? failure : null;
  const day = d.rescheduleDay ?? { date: d.date, slots: null };
  const own = (time: string) => day.date === d.date && time === row.time;
  return (
    <Dialog title={t("reception:manage.rescheduleTitle")} closeTo={closeTo}>
      <Form method="post" preventScrollReset className="space-y-4">
        <p className="text-slate-900">{t("reception:manage.rescheduleFor", { name })}</p>
        {refusal ? <FormAlert message={refusal.message} /> : null}
        <input type="hidden" name="appointmentId" value={row.id} />
        <input type="hidden" name="patientName" value={name} />
        <input type="hidden" name="idempotencyKey" value={`${d.idempotencyKey}-${row.id}-reschedule`} />
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-48 flex-1">
            <label htmlFor="reschedule-date" className="label">
              {t("doctor:reschedule.date")}
            </label>
            <input
              id="reschedule-date"
              name="date"
              type="date"
              required
              min={d.today}
              className="input"
              defaultValue={refusal?.date ?? day.date}
              onBlur={(e) => {
                const value = e.currentTarget.value;
                if (/^\d{4}-\d{2}-\d{2}$/.test(value) && value >= d.today && value !== day.date)
                  void navigate(withParams(here, { rescheduleDate: value }), {
                    replace: true,
                    preventScrollReset: true,
                  });
              }}
            />
          </div>
          {hydrated ? null : (
            <button type="submit" name="intent" value="times" className="btn-secondary" formNoValidate>
              {t("doctor:reschedule.showTimes")}
            </button>
          )}
        </div>
        <div className="min-w-0">
          <label htmlFor="reschedule-time" className="label">
            {t("doctor:reschedule.timeOn", { date: formatDate(day.date, i18n.language) })}
          </label>
          <select
            id="reschedule-time"
            name="time"
            required
            className="input"
            // The time chosen stays chosen when the list follows a new date (an option of both days).
            defaultValue={refusal?.time ?? (day.date === d.date ? row.time : "")}
          >
            <option value="">{t("doctor:reschedule.chooseTime")}</option>
            {byDayPart(day.slots ?? [], (slot) => slot.time)
              .filter((part) => part.items.length)
              .map((part) => (
                <optgroup key={part.key} label={t(`patient:book.${part.key}`)}>
                  {part.items.map((slot) => (
                    <option key={slot.time} value={slot.time} disabled={!slot.available && !own(slot.time)}>
                      {own(slot.time)
                        ? t("doctor:reschedule.currentTime", { time: slot.time })
                        : slot.available
                          ? slot.time
                          : `${slot.time} ${t("patient:book.unavailable")}`}
                    </option>
                  ))}
                </optgroup>
              ))}
          </select>
          {day.slots === null ? (
            <p className="mt-1 text-sm text-red-700">{t("patient:book.slotsFailed")}</p>
          ) : day.slots.length === 0 ? (
            <p className="mt-1 text-sm text-slate-700">{t("common:availability.dayNotWorked")}</p>
          ) : null}
        </div>
        <ClinicTimeZone className="text-xs text-slate-600" />
        <div className="flex flex-wrap justify-end gap-2">
          <Link to={closeTo} preventScrollReset className="btn-secondary">
            {t("reception:manage.keep")}
          </Link>
          <SubmitButton name="intent" value="reschedule">
            {t("reception:manage.rescheduleSubmit")}
          </SubmitButton>
        </div>
      </Form>
    </Dialog>
  );
}

export default function DaySheet({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  useAutoRefresh();
  const failure = actionData?.failure ?? null;
  const c = d.cancelling;
  return (
    <section>
      <PageHeader title={t("reception:day.title")} subtitle={t("reception:day.subtitle")} />
      <Form method="get" className="card mb-4 flex flex-wrap items-end gap-3">
        <div className="min-w-0">
          <label htmlFor="day-date" className="label">
            {t("reception:day.date")}
          </label>
          <input id="day-date" name="date" type="date" className="input" defaultValue={d.date} key={d.date} />
        </div>
        <button type="submit" className="btn-secondary">
          {t("reception:day.show")}
        </button>
        {d.date !== d.today ? (
          <Link to="/reception" className="link-alone text-sm">
            {t("reception:day.today")}
          </Link>
        ) : null}
      </Form>
      <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-lg font-semibold">{formatDate(d.date, i18n.language)}</h2>
        <p className="text-xs text-slate-600" aria-live="off">
          {t("reception:day.refreshed", { time: d.updatedAt })}
        </p>
      </div>
      <ClinicTimeZone className="mb-4 text-xs text-slate-600" />
      {d.doctors.length === 0 ? <p className="card mb-4 text-slate-700">{t("reception:day.noDoctors")}</p> : null}
      <div className="mb-6 space-y-6">
        {d.doctors.map((doctor) => {
          const rows = d.rows.filter((row) => row.doctorId === doctor.id);
          return (
            <section key={doctor.id} aria-labelledby={`doctor-${doctor.id}`}>
              <h3 id={`doctor-${doctor.id}`} className="mb-2 font-semibold text-slate-900">
                {t("reception:day.doctorHeading", { name: doctor.username })}
              </h3>
              {rows.length === 0 ? (
                <p className="text-sm text-slate-700">{t("reception:day.none")}</p>
              ) : (
                <ul className="space-y-2">
                  {rows.map((row) => (
                    <Row key={row.id} row={row} d={d} failure={failure} />
                  ))}
                </ul>
              )}
            </section>
          );
        })}
      </div>
      {d.date === d.today && d.doctors.length ? <WalkInForm d={d} failure={failure} /> : null}
      {d.rescheduling ? <RescheduleDialog row={d.rescheduling} d={d} failure={failure} /> : null}
      {c ? (
        <CancelDialog
          title={t("reception:manage.cancelTitle")}
          summary={t("reception:manage.cancelSummary", {
            name: personName(c.patient.name, t),
            doctor: d.doctors.find((doctor) => doctor.id === c.doctorId)?.username ?? "",
            date: formatDate(d.date, i18n.language),
            time: c.time,
          })}
          warning={t("reception:manage.cancelWarning")}
          keepLabel={t("reception:manage.keep")}
          alert={failure?.id === c.id ? <FormAlert message={failure.message} /> : null}
          confirm={
            <ActionForm
              intent="cancel"
              field="appointmentId"
              id={c.id}
              idempotencyKey={`${d.idempotencyKey}-${c.id}-cancel`}
              className="btn-danger"
              values={{ patientName: personName(c.patient.name, t) }}
            >
              {t("reception:manage.confirmCancel")}
            </ActionForm>
          }
        />
      ) : null}
    </section>
  );
}
