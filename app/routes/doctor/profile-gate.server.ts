// The doctor-profile code gate (docs/product.md, Accounts and codes): a session record {userId, verifiedAt} passes
// for 30 minutes and only for the same user.
import { getSession } from "../../session.server.ts";

const PROFILE_VERIFICATION_MS = 30 * 60 * 1000;

export async function profileAccess(request: Request, userId: string) {
  const session = await getSession(request);
  const record = session.get("profileVerified");
  const valid = Boolean(record && record.userId === userId && Date.now() - record.verifiedAt < PROFILE_VERIFICATION_MS);
  return { valid, stale: Boolean(record) && !valid, session };
}
