// The signed-in doctor's verification state, as the shared layout read it with the bell count
// (app/summary.server.ts): null when the API did not answer, which no screen takes for verified.
import { useRouteLoaderData } from "react-router";
import type { loader as appLayoutLoader } from "../app-layout.tsx";

export function useVerification() {
  return useRouteLoaderData<typeof appLayoutLoader>("routes/app-layout")?.verification ?? null;
}

/** The admin's reason for rejecting the registration, if they gave one. */
export function useRejectionReason() {
  return useRouteLoaderData<typeof appLayoutLoader>("routes/app-layout")?.rejectionReason ?? null;
}
