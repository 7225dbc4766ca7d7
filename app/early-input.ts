// A field the user filled before the page's scripts ran (a slow phone) keeps what they put there.
// A controlled field shows its component's state, and the first render after hydration would put
// the rendered value back over the user's: `takeOver` gets the field's value instead, once, as the
// page becomes interactive (a layout effect runs before that render). Filling a field is the user's
// first act: what loads at one (after-hydration.ts, the language's whole texts among them) loads now,
// else a part shown only with JavaScript would wait for the next press.
import { type RefObject, useLayoutEffect } from "react";
import { userActedEarly } from "./after-hydration.ts";

export function useEarlyInput(
  field: RefObject<HTMLInputElement | HTMLSelectElement | null>,
  rendered: string,
  takeOver: (value: string) => void,
) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the page becomes interactive
  useLayoutEffect(() => {
    const value = field.current?.value;
    if (value === undefined || value === rendered) return;
    userActedEarly();
    takeOver(value);
  }, []);
}
