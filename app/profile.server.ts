// What the patient's and the doctor's profile actions share: deleting the account (docs/product.md).
import { data } from "react-router";
import { logoutRedirect } from "./session.server.ts";
import { toastCookie } from "./toast.server.ts";
import type { Upstream } from "./upstream.server.ts";
import { upstreamErrorKey } from "./upstream-errors.ts";

/**
 * Deletes the signed-in account and signs out to /login. A refusal keeps the delete dialog open
 * with what happened inside it, until the user moves on (docs/forms.md).
 */
export async function deleteAccount(
  request: Request,
  api: Upstream,
  role: "doctor" | "patient",
  idempotencyKey: string | undefined,
) {
  const answer = await api.call("DELETE", "/auth/delete-account", { idempotencyKey });
  if (!answer.ok)
    return data(
      { deleteError: upstreamErrorKey(answer, "profile", `${role}:profile.deleteFailed`) },
      { status: answer.status || 502 },
    );
  const headers = new Headers();
  headers.append("Set-Cookie", await toastCookie({ type: "success", message: `${role}:profile.deleted` }));
  throw await logoutRedirect(request, "/login", headers);
}
