// The doctor-profile code gate (docs/product.md, Accounts and codes): a session record {userId, verifiedAt} passes
// for 30 minutes and only for the same user.
import { createContext } from "react-router";
import { getSession } from "../../session.server.ts";

/**
 * Set by the action when the doctor sends a code. Without JavaScript the page's loader runs again
 * after that action, in the same request: it must not take the gate shown again for a gate opened,
 * or a try that used up the code's five would mail a new one (a code goes out when the gate opens
 * and on 'Resend' only).
 */
export const codeTriedContext = createContext<boolean>(false);

const PROFILE_VERIFICATION_MS = 30 * 60 * 1000;

export async function profileAccess(request: Request, userId: string) {
  const session = await getSession(request);
  const record = session.get("profileVerified");
  const valid = Boolean(record && record.userId === userId && Date.now() - record.verifiedAt < PROFILE_VERIFICATION_MS);
  return { valid, stale: Boolean(record) && !valid, session };
}
