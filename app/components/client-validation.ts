// What a form adds to conform's `useForm` (docs/forms.md): when the browser validates, with the same
// zod schema as the route's action, and where the focus goes when the server refuses the form.
//
//   // validation.ts beside the route: export { parseWithZod } from "@conform-to/zod/v4"; export { loginSchema } from "./schemas.ts";
//   const loadValidation = () => import("./validation.ts");
//   ...
//   const [form, fields] = useForm({
//     lastResult: actionData?.result,
//     ...useClientValidation(loadValidation, (v, formData) => v.parseWithZod(formData, { schema: v.loginSchema })),
//   });
//   useFocusOnRefusal(form.id, actionData?.result);
//
// zod and conform's zod adapter are most of a form's code (docs/performance.md, First visit): the
// module with the parse and the schema loads at the user's first act on the page (a press, a key, a
// focus: after-hydration.ts), not with the page, so a page only read never downloads it. The
// messages are translation keys, and a page carries only the texts its server render used; the
// language's whole texts come at that same first act (app/page-texts.ts). Until both are there (they
// may never come on a flaky network), the form is validated on submit by the server, as without
// JavaScript. (Given no validation, conform validates on submit by sending the form; asked to
// validate on blur, it would send the form on every blur.)
import type { Submission } from "@conform-to/react";
import { useEffect, useState } from "react";
import { whenUserActs } from "../after-hydration.ts";
import { useTranslation } from "../i18n.ts";

type When = "onSubmit" | "onBlur" | "onInput";

/** The validation modules that have come, by their (module-level, so stable) load function. */
const loaded = new Map<() => Promise<unknown>, unknown>();

/** The module `load` gives once it has come, asked for at the user's first act; undefined until then. */
function useLoadedValidation<M>(load: () => Promise<M>): M | undefined {
  const [module, setModule] = useState(() => loaded.get(load) as M | undefined);
  useEffect(() => {
    if (module) return;
    let live = true;
    whenUserActs(() =>
      load().then(
        (m) => {
          loaded.set(load, m);
          if (live) setModule(() => m);
        },
        // Not loaded (a flaky network): the server validates, as without JavaScript.
        () => {},
      ),
    );
    return () => {
      live = false;
    };
  }, [load, module]);
  return module;
}

export function useClientValidation<M, Result extends Submission<unknown, string[], unknown>>(
  load: () => Promise<M>,
  validate: (module: M, formData: FormData) => Result,
  shouldValidate: When = "onBlur",
): { onValidate?: (context: { formData: FormData }) => Result; shouldValidate: When; shouldRevalidate: When } {
  const { complete } = useTranslation();
  const module = useLoadedValidation(load);
  if (!complete || !module) return { shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" };
  return { onValidate: ({ formData }) => validate(module, formData), shouldValidate, shouldRevalidate: "onInput" };
}

/**
 * When the server refuses the form (its answer to a form sent in place, or the page it sent back to
 * a form posted as a document), the focus goes to the first field in error, in the document's
 * order, so that the user, and a screen reader, meet what to mend. conform leaves it where it was.
 */
export function useFocusOnRefusal(formId: string, lastResult: { status?: string } | null | undefined) {
  useEffect(() => {
    if (lastResult?.status !== "error") return;
    const form = document.forms.namedItem(formId);
    const wrong = form && [...form.elements].find((element) => element.getAttribute("aria-invalid") === "true");
    if (wrong instanceof HTMLElement) wrong.focus();
  }, [formId, lastResult]);
}
