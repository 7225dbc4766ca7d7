// The desk's patients (docs/product.md, The front desk): search by phone or name, 'Book with' each
// doctor served (the patient's own book dialog, for this patient: ?patient=<id>&book=<doctorId>),
// 'Walk-in' (the day sheet's form, the phone typed), and the new patient form. A number already
// a patient's is refused with those patients, to book for one of them instead of a duplicate.
import { useEffect } from "react";
import { Form, Link, useLocation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/patients";
import { useTranslation } from "../../i18n.ts";
import { pageOf, upstream } from "../../auth.server.ts";
import { clinicToday } from "../../clinic.server.ts";
import { afterHydration, loadWhenUserActs } from "../../after-hydration.ts";
import { withParams } from "../../url.ts";
import { personName } from "../../person.ts";
import { PageHeader } from "../../components/page.tsx";
import { FormAlert } from "../../components/form-alert.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { SearchForm } from "../../components/search-form.tsx";
import { servedDoctorsOf } from "./desk.server.ts";
import { deskBookingOf, patientsAction, searchPatients } from "./patients.server.ts";
import { BOOK_FOR } from "./params.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const api = upstream(request, context);
  const params = new URL(request.url).searchParams;
  const search = params.get("search")?.trim() ?? "";
  const today = clinicToday();
  const [doctors, found, booking] = await Promise.all([
    servedDoctorsOf(api),
    searchPatients(api, search),
    deskBookingOf(api, params, today),
  ]);
  return {
    search,
    doctors,
    ...found,
    booking,
    // A walk-in's number that no patient had: the new patient form starts with it.
    newPhone: params.get("phone") ?? "",
    today,
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return patientsAction(upstream(request, context), await request.formData(), clinicToday(), pageOf(request));
}

// A refused booking (409 slot taken) must show the slots as they are now.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

// The new patient form and the book dialog (conform, zod and the phone library with them) load after
// the page is interactive.
const loadForm = () => import("./patient-form.tsx");
const PatientForm = afterHydration(() => loadForm().then((m) => m.PatientForm));
const loadDialog = () => import("../health/book-dialog.tsx");
const BookDialog = afterHydration(() => loadDialog().then((m) => m.BookDialog));

type Data = Route.ComponentProps["loaderData"];

/** 'Book with Dr X' for each doctor served, and 'Walk-in': what the desk does for a patient found. */
function PatientActions({ d, patient }: { d: Data; patient: { id: string; username: string; phone: string | null } }) {
  const { t } = useTranslation();
  const location = useLocation();
  const name = personName(patient.username, t);
  const here = location.pathname + location.search;
  return (
    <div className="flex flex-wrap gap-2">
      {d.doctors.map((doctor) => (
        <Link
          key={doctor.id}
          to={withParams(here, { [BOOK_FOR]: patient.id, book: doctor.id, date: null })}
          preventScrollReset
          className="btn-primary"
          aria-label={`${t("reception:patients.bookWith", { name: doctor.username })}: ${name}`}
        >
          {t("reception:patients.bookWith", { name: doctor.username })}
        </Link>
      ))}
      {patient.phone ? (
        <Link
          to={withParams("/reception", { walkInPhone: patient.phone })}
          className="btn-secondary"
          aria-label={t("reception:patients.walkInFor", { name })}
        >
          {t("reception:patients.walkIn")}
        </Link>
      ) : null}
    </div>
  );
}

/** A desk record whose claim 5 wrong dates of birth locked: the desk checks who it is, then unlocks it. */
function ClaimUnlock({ patient }: { patient: { id: string; username: string } }) {
  const { t } = useTranslation();
  const name = personName(patient.username, t);
  return (
    <Form method="post" preventScrollReset className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-medium text-amber-900">{t("reception:patients.claimLocked")}</p>
      <p className="text-xs text-slate-700">{t("reception:patients.claimLockedHint")}</p>
      <input type="hidden" name="patientId" value={patient.id} />
      <SubmitButton className="btn-secondary" name="form" value="claimUnlock">
        {t("reception:patients.claimUnlock")}
        <span className="sr-only">: {name}</span>
      </SubmitButton>
    </Form>
  );
}

export default function Patients({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  useEffect(() => {
    // Fetched at the user's first act on the page (after-hydration.ts).
    loadWhenUserActs(loadForm);
    loadWhenUserActs(loadDialog);
  }, []);
  const created = actionData?.form === "patient" ? actionData : null;
  const book = actionData?.form === "book" ? actionData : undefined;
  return (
    <section>
      <PageHeader title={t("reception:patients.title")} subtitle={t("reception:patients.subtitle")} />
      <div className="grid min-w-0 items-start gap-6 lg:grid-cols-2">
        <section aria-labelledby="patients-found" className="min-w-0 space-y-4">
          <SearchForm
            label={t("reception:patients.search")}
            applyLabel={t("reception:patients.searchSubmit")}
            search={d.search}
          />
          <p className="text-xs text-slate-600">{t("reception:patients.searchHint")}</p>
          <h2 id="patients-found" className="sr-only">
            {t("reception:patients.title")}
          </h2>
          <FormAlert message={d.message} />
          {d.patients === null ? null : d.patients.length === 0 ? (
            <p className="card text-slate-700" role="status">
              {t("reception:patients.none")}
            </p>
          ) : (
            <>
              <p className="text-sm text-slate-700" role="status">
                {t("reception:patients.found", { count: d.patients.length })}
              </p>
              <ul className="space-y-3">
                {d.patients.map((patient) => (
                  <li key={patient.id} className="card min-w-0 space-y-2">
                    <h3 className="font-semibold break-words">{personName(patient.username, t)}</h3>
                    <dl className="grid gap-x-3 text-sm sm:grid-cols-[auto_1fr]">
                      {patient.phoneShown ? (
                        <>
                          <dt className="font-medium text-slate-700">{t("reception:patients.phone")}</dt>
                          <dd>{patient.phoneShown}</dd>
                        </>
                      ) : null}
                      {patient.email ? (
                        <>
                          <dt className="font-medium text-slate-700">{t("reception:patients.email")}</dt>
                          <dd className="break-all">{patient.email}</dd>
                        </>
                      ) : null}
                    </dl>
                    {patient.claimLocked ? <ClaimUnlock patient={patient} /> : null}
                    <PatientActions d={d} patient={patient} />
                  </li>
                ))}
              </ul>
            </>
          )}
        </section>
        <section className="card min-w-0 space-y-4">
          <PatientForm
            today={d.today}
            phone={d.newPhone}
            result={created?.result}
            idempotencyKey={`${d.idempotencyKey}-patient`}
          />
          {created?.taken?.patients.length ? (
            <div className="space-y-2">
              <h3 className="font-semibold">{t("reception:patients.existing")}</h3>
              <ul className="space-y-2">
                {created.taken.patients.map((patient) => (
                  <li key={patient.id} className="min-w-0 space-y-2 rounded-md border border-slate-200 p-3">
                    <p className="font-medium break-words">{personName(patient.username, t)}</p>
                    <PatientActions d={d} patient={{ ...patient, phone: created.taken?.phone ?? null }} />
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </section>
      </div>
      {d.booking ? (
        <BookDialog
          key={`${d.booking.patient.id}-${d.booking.doctor.id}`}
          d={d}
          booking={d.booking}
          answer={book}
          title={t("reception:book.title", { name: personName(d.booking.patient.username, t) })}
          fields={{ patientId: d.booking.patient.id, patientName: personName(d.booking.patient.username, t) }}
          closeParams={[BOOK_FOR]}
        />
      ) : null}
    </section>
  );
}
