// The pending verification (docs/architecture.md, The session), as a signed cookie honoured for 24 hours.
import { createCookie } from "react-router";
import { loadConfig } from "../config.ts";

const config = loadConfig();
const PENDING_VERIFICATION_MS = 24 * 60 * 60 * 1000;

const cookie = createCookie("pending-verification", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: config.cookieSecure,
  secrets: config.sessionSecrets,
  maxAge: PENDING_VERIFICATION_MS / 1000,
});

export interface PendingVerification {
  userId: string;
  /** Where the code went: the address, or (a sign-up by phone) the number, E.164 or as typed. */
  email: string;
  phone?: string;
  timestamp: number;
}

export const savePendingVerification = (userId: string, email: string, phone?: string) =>
  cookie.serialize({ userId, email, phone, timestamp: Date.now() } satisfies PendingVerification);

export const clearPendingVerification = () => cookie.serialize("", { maxAge: 0 });

export async function readPendingVerification(request: Request): Promise<PendingVerification | null> {
  const value = (await cookie.parse(request.headers.get("Cookie"))) as PendingVerification | null;
  if (!value || typeof value.userId !== "string" || typeof value.email !== "string") return null;
  if (value.phone !== undefined && typeof value.phone !== "string") return null;
  if (Date.now() - value.timestamp > PENDING_VERIFICATION_MS) return null;
  return value;
}
