// The find-a-doctor page's server side: the dashboard (upcoming, confirmed, count), the doctor
// search, the book dialog's doctor and slots, and the book and request actions.
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type RouterContextProvider } from "react-router";
import { pageNumber, positiveId, withParams } from "../../url.ts";
import type { DaySlot as Slot, DirectBooking, OpenRequest } from "../../../contract/appointment.ts";
import type { Country, Speciality } from "../../../contract/reference.ts";
import type { DoctorCard, DoctorPage } from "../../../contract/doctor.ts";
import { DOCTOR_PAGE_SIZE } from "../../../contract/constants.ts";
import { citiesOf, reloadCities } from "../../location.server.ts";
import { redirectWithToast, type Toast } from "../../toast.server.ts";
import type { Upstream } from "../../upstream.server.ts";
import { requireSummary, type PatientDashboard } from "../../summary.server.ts";
import { bookSchema, detailsOf, requestSchema } from "./appointment-schemas.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import { shownDoctor } from "../../patient-rules.ts";
import { specialityName } from "../../format.ts";
import { addDays } from "../../../contract/days.ts";

const isDay = (value: string | null): value is string =>
  Boolean(value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)));

/**
 * The home's cards (docs/product.md, Screens and routes: the earliest appointment neither cancelled nor completed
 * still to come, up to 3 confirmed, a count), chosen and counted by the API in the summary the
 * shared layout fetches anyway (app/summary.server.ts): no list is fetched to pick four.
 */
export async function dashboardOf(context: Readonly<RouterContextProvider>): Promise<PatientDashboard> {
  const { dashboard } = await requireSummary(context);
  if (!dashboard) throw new Error("the patient home's summary came without its cards");
  return dashboard;
}

/** `language`: the page's; the names the page shows are sent in it alone. */
export async function searchDoctors(api: Upstream, params: URLSearchParams, language: string) {
  const search = params.get("search")?.trim() ?? "";
  const speciality = positiveId(params.get("speciality"));
  const country = positiveId(params.get("country"));
  const page = pageNumber(params.get("page"));
  const [specialities, countries, cities] = await Promise.all([
    api.call<Speciality[]>("GET", "/speciality"),
    api.call<Country[]>("GET", "/location/country"),
    citiesOf(api, country),
  ]);
  // A city of another country (left from an earlier choice) is dropped.
  const requestedCity = positiveId(params.get("city"));
  const city = requestedCity && cities.some((c) => c.id === requestedCity) ? requestedCity : null;
  const found = await api.get<DoctorPage>("/doctor", {
    search,
    speciality,
    country,
    city,
    page,
    limit: DOCTOR_PAGE_SIZE,
  });
  // Only what the page renders: its data is sent again, as hydration data, with its first-load
  // JavaScript (docs/decisions/0003-first-load-javascript-budget.md).
  const { doctors, total, totalCapped, totalPages } = found;
  return {
    filters: {
      search,
      speciality: speciality ? String(speciality) : "",
      country: country ? String(country) : "",
      city: city ? String(city) : "",
    },
    specialities: specialities.ok
      ? specialities.data.map((s) => ({ id: s.id, name: specialityName(s, language) }))
      : [],
    countries: countries.ok ? countries.data : [],
    cities,
    doctors: {
      doctors: doctors.map((d) => ({ id: d.id, ...shownDoctor(d, language), nextSlot: d.nextSlot })),
      page: found.page,
      total,
      totalCapped,
      totalPages,
    },
  };
}

/** The book dialog (?book=<doctorId>&date=YYYY-MM-DD): the doctor and the day's six slots. */
export async function bookingOf(api: Upstream, params: URLSearchParams, today: string) {
  const doctorId = params.get("book");
  if (!doctorId) return null;
  const found = await api.call<DoctorPage>("GET", "/doctor", { query: { id: doctorId } });
  const doctor: DoctorCard | undefined = found.ok ? found.data.doctors[0] : undefined;
  if (!doctor) return null;
  const asked = params.get("date");
  // No day asked: the day of the doctor's next free slot (docs/product.md, Availability), else tomorrow.
  const date = isDay(asked) && asked >= today ? asked : (doctor.nextSlot?.date ?? addDays(today, 1));
  const slots = await api.call<Slot[]>("GET", "/appointment/slots", { query: { doctorId: doctor.id, date } });
  return { doctor, date, slots: slots.ok ? slots.data : null };
}

export type Booking = NonNullable<Awaited<ReturnType<typeof bookingOf>>>;

/** Who books: the patient for themselves (POST /appointment), or the front desk for a patient. */
interface Booker {
  send: (v: BookForm, idempotencyKey: string | undefined) => ReturnType<Upstream["call"]>;
  toast: Toast;
}
type BookForm = ReturnType<ReturnType<typeof bookSchema>["parse"]>;

const patientBooker = (api: Upstream): Booker => ({
  send: (v, idempotencyKey) =>
    api.call("POST", "/appointment", {
      body: {
        doctorId: v.doctorId,
        type: v.type,
        category: "direct",
        date: v.date,
        time: v.time,
        details: detailsOf(v),
      } satisfies DirectBooking,
      idempotencyKey,
    }),
  toast: { type: "success", message: "patient:book.created" },
});

/**
 * `page`: the page the dialog was posted from (its search and paging are kept). The date booked is
 * the one in the date field, even when its times were never reloaded (shownDate differs): a free
 * slot that day is booked, else the dialog comes back with that day's slots, asking for a time.
 */
export async function bookAction(
  api: Upstream,
  formData: FormData,
  today: string,
  page: string,
  booker: Booker = patientBooker(api),
  closeParams: string[] = [],
) {
  const asked = String(formData.get("date") ?? "");
  if (formData.get("intent") === "times") {
    // Without JavaScript, 'Show available times' reloads the dialog on the typed day.
    return redirect(withParams(page, { date: isDay(asked) && asked >= today ? asked : null }));
  }
  const submission = parseWithZod(formData, { schema: bookSchema(today) });
  const dayChanged = isDay(asked) && asked >= today && asked !== formData.get("shownDate");
  const refused = async (formErrors: string[], status: number, hideTime = dayChanged) => {
    const booking = dayChanged
      ? await bookingOf(api, new URLSearchParams({ book: String(formData.get("doctorId") ?? ""), date: asked }), today)
      : null;
    const errors = dayChanged && !formErrors.length ? ["patient:book.dayChanged"] : formErrors;
    return data(
      {
        form: "book" as const,
        result: submission.reply({ formErrors: errors, hideFields: hideTime ? ["time"] : [] }),
        booking,
        cities: null,
      },
      { status },
    );
  };
  if (submission.status !== "success") return refused([], 400);
  const answer = await booker.send(submission.value, String(formData.get("idempotencyKey") ?? "") || undefined);
  if (!answer.ok) {
    // A taken slot: the dialog again, its slots reloaded, with a clear message (docs/product.md).
    const message = upstreamErrorKey(answer, "booking", "patient:book.failed");
    return refused([message], answer.status, true);
  }
  const closed = { book: null, date: null, ...Object.fromEntries(closeParams.map((p) => [p, null])) };
  return redirectWithToast(withParams(page, closed), booker.toast);
}

export async function requestAction(api: Upstream, formData: FormData, today: string) {
  const schema = requestSchema(today);
  if (formData.get("intent") === "cities")
    return { form: "request" as const, ...(await reloadCities(api, formData, schema)) };
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success")
    return data({ form: "request" as const, result: submission.reply(), cities: null }, { status: 400 });
  const v = submission.value;
  const inPerson = v.type === "in-person";
  const answer = await api.call("POST", "/appointment", {
    body: {
      specialityId: v.specialityId,
      type: v.type,
      category: "random",
      date: v.date,
      time: v.time,
      country: inPerson ? v.countryId : undefined,
      city: inPerson ? v.cityId : undefined,
      details: detailsOf(v),
    } satisfies OpenRequest,
    idempotencyKey: String(formData.get("idempotencyKey") ?? "") || undefined,
  });
  if (!answer.ok) {
    const message = upstreamErrorKey(answer, "openRequest", "patient:request.failed");
    return data(
      { form: "request" as const, result: submission.reply({ formErrors: [message] }), cities: null },
      { status: answer.status },
    );
  }
  return redirectWithToast("/health/doctors/my-appointments?tab=open", {
    type: "success",
    message: "patient:request.submitted",
  });
}
