// What every signed-in page shows besides its own content, fetched once per request: the bell
// count, a doctor's verification state, on the patient home its cards and on the bell's page its
// list (docs/performance.md).
// The shared layout's loader and the page's loader run side by side and both read it; the call is
// made by the first of them, so an action or a resource route under the layout makes none.
import { createContext, data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { getUser, upstream } from "./auth.server.ts";
import type { PatientHome } from "../contract/patient.ts";
import type { UpstreamResult } from "./upstream.server.ts";
import type { DoctorHome } from "../contract/doctor-profile.ts";
import { NOTIFICATIONS_PAGE } from "./notifications.ts";
import { pageNumber } from "./url.ts";

export type { PatientDashboard } from "../contract/patient.ts";

/** The bell and, on the patient home, the cards (the patient's summary); a doctor's also says where their registration stands. */
export type Summary = PatientHome & Partial<Pick<DoctorHome, "verification" | "rejectionReason">>;

/** The page whose loader needs the patient's dashboard cards. */
const PATIENT_HOME = "/health/doctors";

const summaryContext = createContext<(() => Promise<UpstreamResult<Summary> | null>) | null>(null);

/** Behind `requireUser`: puts a lazy, shared summary call in the context. */
export const summaryMiddleware: MiddlewareFunction<Response> = ({ request, context, url }, next) => {
  const user = getUser(context);
  let pending: Promise<UpstreamResult<Summary> | null> | undefined;
  context.set(summaryContext, () => {
    pending ??= (() => {
      // The admin and the front desk have no bell.
      if (user.role === "admin" || user.role === "receptionist") return Promise.resolve(null);
      // `url` is the page's, also for the router's data requests (`/health/doctors.data`).
      const page = url.pathname.replace(/\/$/, "") || "/";
      const query =
        page === NOTIFICATIONS_PAGE
          ? { notifications: pageNumber(url.searchParams.get("page")) }
          : user.role === "patient" && page === PATIENT_HOME
            ? { dashboard: 1 }
            : undefined;
      return upstream(request, context).call<Summary>("GET", `/${user.role}/summary`, { query });
    })();
    return pending;
  });
  return next();
};

function answerOf(context: Readonly<RouterContextProvider>) {
  const get = context.get(summaryContext);
  if (!get) throw new Error("the summary needs summaryMiddleware on a parent route");
  return get();
}

/** The request's summary; null for an admin or when the API did not answer (callers degrade). */
export async function summaryOf(context: Readonly<RouterContextProvider>): Promise<Summary | null> {
  const answer = await answerOf(context);
  return answer?.ok ? answer.data : null;
}

/** For a page that cannot show without it: an error answer is thrown as Upstream.get throws it. */
export async function requireSummary(context: Readonly<RouterContextProvider>): Promise<Summary> {
  const answer = await answerOf(context);
  if (!answer) throw data({ code: "not_found" }, { status: 404 });
  if (!answer.ok) throw data({ code: answer.code }, { status: answer.status >= 500 ? 503 : answer.status });
  return answer.data;
}
