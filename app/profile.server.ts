// What the patient's and the doctor's profile actions share: deleting the account (docs/product.md).
import { logoutRedirect } from "./session.server.ts";
import { redirectWithToast, toastCookie } from "./toast.server.ts";
import type { Upstream } from "./upstream.server.ts";

/** Deletes the signed-in account and signs out to /login; a refusal stays on the profile with a toast. */
export async function deleteAccount(request: Request, api: Upstream, role: "doctor" | "patient", idempotencyKey: string | undefined) {
  const answer = await api.call("DELETE", "/auth/delete-account", { idempotencyKey });
  if (!answer.ok) return redirectWithToast(`/${role}/profile`, { type: "error", message: `${role}:profile.deleteFailed` });
  const headers = new Headers();
  headers.append("Set-Cookie", await toastCookie({ type: "success", message: `${role}:profile.deleted` }));
  throw await logoutRedirect(request, "/login", headers);
}
