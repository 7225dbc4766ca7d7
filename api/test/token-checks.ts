// How many bearer-token lookups the API of this process made (api_token_checks_total): the tests
// of one token check per page (api/auth/page-scope.ts) count them around a page's calls.
import { tokenChecks } from "../http.ts";

const checksSoFar = async () => (await tokenChecks.get()).values.reduce((sum, v) => sum + v.value, 0);

/** How many token lookups `calls` made. */
export async function tokenLookupsDuring(calls: () => Promise<unknown>) {
  const before = await checksSoFar();
  await calls();
  return (await checksSoFar()) - before;
}
