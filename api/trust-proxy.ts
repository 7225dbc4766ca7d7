// TRUST_PROXY: which hops in front of the server may say who the client is (X-Forwarded-For). The
// client address keys the rate limits (api/auth/throttle.ts), so trusting too little puts every user
// behind a proxy on one address, and trusting too much lets anyone pick their address.
//   false           nobody: the address is the TCP peer's
//   true            every hop (only when the server cannot be reached except through the proxy)
//   a hop count     that many proxies in front (e.g. 1 for one load balancer)
//   a list          comma-separated addresses or subnets, or Express's names loopback, linklocal,
//                   uniquelocal (default: loopback)
import proxyaddr from "proxy-addr";

export type TrustProxy = boolean | number | string[];
type TrustFn = (address: string, hop: number) => boolean;

/** Parses and validates the setting; throws a one-line message naming the variable. */
export function trustProxySetting(value: string | undefined): TrustProxy {
  const raw = (value ?? "").trim();
  if (raw === "") return ["loopback"];
  if (raw === "true") return true;
  if (raw === "false") return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  const list = raw.split(",").map((part) => part.trim());
  try {
    if (list.some((part) => part === "")) throw new Error("empty entry");
    proxyaddr.compile(list);
  } catch (error) {
    throw new Error(`TRUST_PROXY: must be true, false, a hop count or a comma-separated list of addresses/subnets (${(error as Error).message})`);
  }
  return list;
}

/** The Express "trust proxy" function for a setting. */
export function trustFunction(setting: TrustProxy): TrustFn {
  if (setting === true) return () => true;
  if (setting === false) return () => false;
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return proxyaddr.compile(setting);
}

const loopback = proxyaddr.compile("loopback");

/**
 * For the API: the setting, and in any case the first hop on loopback, which is the web tier of this
 * same server calling its embedded API with the browser's address in X-Forwarded-For.
 */
export function apiTrustFunction(setting: TrustProxy = false): TrustFn {
  const configured = trustFunction(setting);
  return (address, hop) => (hop === 0 && loopback(address, hop)) || configured(address, hop);
}
