// Patient dashboard and find-a-doctor (docs/product.md, Screens and routes): welcome, upcoming appointment, up to 3
// confirmed, a count; a GET search form with paging; doctor cards whose Book link opens the book
// dialog (?book=<id>&date=…) and a request dialog (?request=1) for open requests.
import { useEffect, type ReactNode } from "react";
import { afterHydration, loadWhenUserActs } from "../../after-hydration.ts";
import { useHydrated, useTranslation } from "../../i18n.ts";
import { Form, Link, useLocation, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/doctors";
import { getUser, pageOf, upstream } from "../../auth.server.ts";
import { withParams } from "../../url.ts";
import { PageHeader } from "../../components/page.tsx";
import { DoctorSummary } from "../../components/patient/doctor-summary.tsx";
import { placeOf } from "../../patient-rules.ts";
import { countryOptions, formatDate, specialityName } from "../../format.ts";
import { Pagination } from "../../components/pagination.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import type { PatientAppointment } from "../../../contract/appointment.ts";
import { slotOf } from "../../format.ts";
import { clinicToday } from "../../clinic.server.ts";
import { getLanguage } from "../../i18n.server.ts";
import { bookAction, bookingOf, dashboardOf, requestAction, searchDoctors } from "./doctors.server.ts";
import { ClinicTimeZone } from "../../components/clinic-time-zone.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = getUser(context);
  const api = upstream(request, context);
  const params = new URL(request.url).searchParams;
  const today = clinicToday();
  const [dashboard, found, booking] = await Promise.all([
    dashboardOf(context),
    searchDoctors(api, params, getLanguage(context)),
    bookingOf(api, params, today),
  ]);
  return {
    username: user.username,
    dashboard,
    ...found,
    booking,
    requesting: params.get("request") === "1",
    today,
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const api = upstream(request, context);
  const today = clinicToday();
  return formData.get("form") === "request"
    ? requestAction(api, formData, today)
    : bookAction(api, formData, today, pageOf(request));
}

// A refused booking (409 slot taken) must show the slots as they are now.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod === "POST" ? true : defaultShouldRevalidate;
}

type Data = Route.ComponentProps["loaderData"];

// The dialogs (and conform's form state) load after the page is interactive: a page opened with a
// dialog in its URL renders it on the server as always, and hydrates once the module has arrived
// (there is no Suspense boundary, so nothing shows a fallback); opening one later finds it loaded.
const loadDialogs = () => import("./doctor-dialogs.tsx");
const BookDialog = afterHydration(() => loadDialogs().then((m) => m.BookDialog));
const RequestDialog = afterHydration(() => loadDialogs().then((m) => m.RequestDialog));

function AppointmentLine({ a }: { a: PatientAppointment }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <p className="font-semibold text-slate-900">
        {a.Doctor ? t("patient:doctors.drName", { name: a.Doctor.username }) : t("patient:appointments.noDoctorYet")}
      </p>
      <p className="text-sm text-slate-700">
        {formatDate(a.date, i18n.language)} · {slotOf(a)}
        {a.Speciality ? ` · ${specialityName(a.Speciality, i18n.language)}` : null}
      </p>
      <p className="text-sm text-slate-700">{placeOf(a, t, i18n.language)}</p>
    </>
  );
}

function Dashboard({ d }: { d: Data["dashboard"] }) {
  const { t } = useTranslation();
  return (
    <div className="mb-6 grid gap-4 lg:grid-cols-2">
      <section className="card" aria-labelledby="upcoming-title">
        <h2 id="upcoming-title" className="mb-2 text-lg font-semibold">
          {t("patient:doctors.upcomingTitle")}
        </h2>
        {d.upcoming ? (
          <div className="flex items-start justify-between gap-3">
            <div>
              <AppointmentLine a={d.upcoming} />
              <ClinicTimeZone />
            </div>
            <StatusBadge status={d.upcoming.status} role="patient" />
          </div>
        ) : (
          <p className="text-slate-700">{t("patient:doctors.noUpcoming")}</p>
        )}
      </section>
      <section className="card" aria-labelledby="confirmed-title">
        <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
          <h2 id="confirmed-title" className="text-lg font-semibold">
            {t("patient:doctors.confirmedTitle")}
          </h2>
          <Link
            to="/health/doctors/my-appointments?tab=assigned&status=confirmed"
            className="rounded-full bg-brand-50 px-3 py-0.5 text-sm font-semibold text-brand-800"
          >
            {t("patient:doctors.confirmedCount", { count: d.confirmedAhead })}
          </Link>
        </div>
        {d.confirmed.length ? (
          <ul className="space-y-3">
            {d.confirmed.map((a) => (
              <li key={a.id} className="border-l-4 border-green-700 pl-3">
                <AppointmentLine a={a} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-slate-700">{t("patient:doctors.noConfirmed")}</p>
        )}
        <Link to="/health/doctors/my-appointments" className="link-alone mt-3 text-sm">
          {t("patient:doctors.allCount", { count: d.total })}
        </Link>
      </section>
    </div>
  );
}

/**
 * A labelled control of the search, marked up as the shared fields (components/forms.tsx) render one
 * without errors: the search has none to show, and the fields' module stays out of the page's first
 * load (docs/decisions/0003-first-load-javascript-budget.md).
 */
function SearchControl({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="label">
        {label}
      </label>
      {children}
    </div>
  );
}

function DoctorSearch({ d }: { d: Data }) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  return (
    <Form
      method="get"
      role="search"
      aria-label={t("patient:doctors.searchTitle")}
      className="card mb-4 grid items-end gap-3 sm:grid-cols-2 lg:grid-cols-5"
    >
      <SearchControl id="doctor-search" label={t("patient:doctors.name")}>
        <input id="doctor-search" className="input" type="search" name="search" defaultValue={d.filters.search} />
      </SearchControl>
      <SearchControl id="doctor-speciality" label={t("patient:doctors.speciality")}>
        <select id="doctor-speciality" className="input" name="speciality" defaultValue={d.filters.speciality}>
          <option value="">{t("patient:doctors.allSpecialities")}</option>
          {d.specialities.map((s) => (
            <option key={s.id} value={s.id}>
              {specialityName(s, i18n.language)}
            </option>
          ))}
        </select>
      </SearchControl>
      <SearchControl id="doctor-country" label={t("patient:location.country")}>
        <select
          id="doctor-country"
          className="input"
          name="country"
          defaultValue={d.filters.country}
          onChange={(e) => {
            // With JavaScript, a new country reloads the city list at once (its city is cleared).
            const form = e.currentTarget.form;
            const city = form?.elements.namedItem("city") as HTMLSelectElement | null;
            if (city) city.value = "";
            form?.requestSubmit();
          }}
        >
          <option value="">{t("patient:location.allCountries")}</option>
          {countryOptions(d.countries, i18n.language).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </SearchControl>
      <SearchControl id="doctor-city" label={t("patient:location.city")} key={d.filters.country}>
        <select id="doctor-city" className="input" name="city" defaultValue={d.filters.city}>
          <option value="">
            {d.filters.country ? t("patient:location.allCities") : t("patient:location.selectCountryFirst")}
          </option>
          {d.cities.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </SearchControl>
      <button type="submit" className="btn-primary">
        {hydrated ? t("patient:doctors.search") : t("patient:doctors.searchOrUpdate")}
      </button>
    </Form>
  );
}

export default function FindDoctor({ loaderData: d, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    // Fetched at the user's first act on the page, so it shows at once when opened; one that fails is
    // tried again when shown (after-hydration.ts).
    loadWhenUserActs(loadDialogs);
  }, []);
  const location = useLocation();
  const here = location.pathname + location.search;
  const list = d.doctors;
  return (
    <section>
      <PageHeader
        title={t("patient:doctors.title")}
        subtitle={t("patient:doctors.welcome", { name: d.username })}
        actions={
          <Link
            to={withParams(here, { request: "1", book: null, date: null })}
            preventScrollReset
            className="btn-primary"
          >
            {t("patient:request.open")}
          </Link>
        }
      />
      <Dashboard d={d.dashboard} />
      <h2 className="mb-2 text-lg font-semibold">{t("patient:doctors.searchTitle")}</h2>
      <DoctorSearch d={d} />
      <p className="mb-2 text-sm text-slate-700" role="status">
        {t(list.totalCapped ? "patient:doctors.foundMoreThan" : "patient:doctors.found", { count: list.total })}
      </p>
      {list.doctors.length === 0 ? (
        <p className="card text-slate-700">{t("patient:doctors.none")}</p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2" aria-label={t("patient:doctors.results")}>
          {list.doctors.map((doctor) => (
            <li key={doctor.id} className="card">
              <DoctorSummary doctor={doctor}>
                <p className="mt-2 text-sm font-medium text-slate-800">
                  {doctor.nextSlot
                    ? t("patient:nextSlot.card", {
                        date: formatDate(doctor.nextSlot.date, i18n.language),
                        time: slotOf(doctor.nextSlot),
                      })
                    : t("patient:nextSlot.none")}
                </p>
                {/* The dialog opens on the day of the next free slot (docs/product.md, Availability). */}
                <Link
                  to={withParams(here, { book: doctor.id, date: doctor.nextSlot?.date ?? null, request: null })}
                  preventScrollReset
                  className="btn-primary mt-3"
                  aria-label={t("patient:doctors.bookWith", { name: doctor.username })}
                >
                  {t("patient:doctors.book")}
                </Link>
              </DoctorSummary>
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={list.page}
        totalPages={list.totalPages}
        linkTo={(page) => withParams(here, { page: String(page), book: null, date: null, request: null })}
      />
      {d.booking ? (
        <BookDialog
          key={d.booking.doctor.id}
          d={d}
          booking={d.booking}
          answer={actionData?.form === "book" ? actionData : undefined}
        />
      ) : null}
      {d.requesting ? <RequestDialog d={d} actionData={actionData} /> : null}
    </section>
  );
}
