import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { requireUser } from "../../auth.server.ts";
import { useVerification } from "../../components/doctor/verification.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("doctor")];

// No loader: the verification state comes with the bell count the shared layout already fetches,
// so a doctor page costs no call for it (docs/performance.md).
export default function DoctorLayout() {
  const { t } = useTranslation();
  const verification = useVerification();
  return (
    <>
      {verification === "pending" || verification === "rejected" ? (
        <div role="status" className="mb-4 rounded-md border-l-4 border-amber-600 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {t(verification === "rejected" ? "common:doctorRejected" : "common:doctorPending")}
        </div>
      ) : null}
      <Outlet />
    </>
  );
}
