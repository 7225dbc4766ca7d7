import { useTranslation } from "../../i18n.ts";
import { Outlet } from "react-router";
import type { Route } from "./+types/layout";
import { requireUser } from "../../auth.server.ts";
import { useRejectionReason, useVerification } from "./verification.ts";

export const middleware: Route.MiddlewareFunction[] = [requireUser("doctor")];

// No loader: the verification state comes with the bell count the shared layout already fetches,
// so a doctor page costs no call for it (docs/performance.md).
export default function DoctorLayout() {
  const { t } = useTranslation();
  const verification = useVerification();
  const rejectionReason = useRejectionReason();
  return (
    <>
      {verification === "pending" || verification === "rejected" ? (
        <div
          role="status"
          className="mb-4 rounded-md border-l-4 border-amber-600 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <p>{t(verification === "rejected" ? "common:doctorRejected" : "common:doctorPending")}</p>
          {verification === "rejected" && rejectionReason ? (
            <p className="mt-1 break-words whitespace-pre-line">
              {t("common:doctorRejectedReason", { reason: rejectionReason })}
            </p>
          ) : null}
        </div>
      ) : null}
      <Outlet />
    </>
  );
}
