// TRUST_PROXY (parsed in config.ts): which hops in front of the server may say who the client is
// (X-Forwarded-For). The client address keys the rate limits (api/throttle.ts), so trusting
// too little puts every user behind a proxy on one address, and trusting too much lets anyone pick
// their address.
import proxyaddr from "proxy-addr";

export type TrustProxy = boolean | number | string[];
type TrustFn = (address: string, hop: number) => boolean;

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
