// Client-side validation that loads after the page is interactive (docs/decisions/0003): zod, the
// conform adapter and the page's schemas are not part of the first load of any page. Until they
// have arrived, a submit is validated by the server with the same schemas, exactly as without
// JavaScript, so nothing is lost on a slow network.
//
//   const [form, fields] = useForm({
//     ...useLazyValidation(() => import("./schemas.ts"), (parse, s, formData) => parse(formData, { schema: s.loginSchema }),
//       { shouldValidate: "onBlur", shouldRevalidate: "onInput" }),
//     ...
//   });
//
// Until the schemas have arrived, fields are validated on submit only: conform validates a field
// it has no onValidate for by posting the form to the server, so a blur or a keystroke would each
// cost a round trip on a slow network (and a click landing between two of them was lost).
//
// The route keeps its static import of the schemas for its action: React Router drops server code
// from the browser build, so only this dynamic import remains there.
import { useEffect, useState } from "react";
import type { Submission as ConformSubmission } from "@conform-to/react";
import type { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "../i18n.ts";

type Parse = typeof parseWithZod;
type When = "onSubmit" | "onBlur" | "onInput";

export function useLazyValidation<Schemas, Result extends ConformSubmission<unknown, string[], unknown>>(
  loadSchemas: () => Promise<Schemas>,
  validate: (parse: Parse, schemas: Schemas, formData: FormData) => Result,
  when: { shouldValidate: When; shouldRevalidate: When },
): { onValidate?: (context: { formData: FormData }) => Result; shouldValidate: When; shouldRevalidate: When } {
  const [loaded, setLoaded] = useState<{ parse: Parse; schemas: Schemas }>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: loadSchemas is a new arrow at each render; loading once is meant
  useEffect(() => {
    let live = true;
    // zod compiles object parsers with `new Function` unless told not to, and its probe for that is
    // a CSP violation under this app's policy (no 'unsafe-eval'): jitless must be set before the
    // schemas module builds its schemas.
    import("zod")
      .then(({ z }) => z.config({ jitless: true }))
      .then(() => Promise.all([import("@conform-to/zod/v4"), loadSchemas()]))
      .then(
      ([adapter, schemas]) => live && setLoaded({ parse: adapter.parseWithZod, schemas }),
      // A chunk that fails to load leaves the form validated by the server.
      () => {},
    );
    return () => {
      live = false;
    };
    // Loaded once per form: the schemas module does not change while the page lives.
  }, []);
  // The messages are texts of the language's whole texts, which a page does not carry (app/page-texts.ts):
  // until they are there (they may never come on a flaky network), the server validates and words them.
  const { complete } = useTranslation();
  if (!loaded || !complete) return { shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" };
  return { onValidate: ({ formData }) => validate(loaded.parse, loaded.schemas, formData), ...when };
}
