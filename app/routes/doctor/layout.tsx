import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { requireUser, upstream } from "../../auth.server.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("doctor")];

export async function loader({ request, context }: Route.LoaderArgs) {
  const info = await upstream(request, context).call<{ verification?: string }>("GET", "/doctor/doctor-info");
  return { verification: info.ok ? (info.data.verification ?? "verified") : "verified" };
}

export default function DoctorLayout({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      {loaderData.verification !== "verified" ? (
        <div role="status" className="mb-4 rounded-md border-l-4 border-amber-600 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {t(loaderData.verification === "rejected" ? "common:doctorRejected" : "common:doctorPending")}
        </div>
      ) : null}
      <Outlet />
    </>
  );
}
