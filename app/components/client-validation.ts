// What a form adds to conform's `useForm` (docs/forms.md): when the browser validates, with the same
// zod schema as the route's action, and where the focus goes when the server refuses the form.
//
//   const [form, fields] = useForm({
//     lastResult: actionData?.result,
//     ...useClientValidation((formData) => parseWithZod(formData, { schema: loginSchema })),
//   });
//   useFocusOnRefusal(form.id, actionData?.result);
//
// The messages are translation keys. A page carries only the texts its server render used, and the
// language's whole texts come once it is interactive (app/page-texts.ts): until they are there (they
// may never come on a flaky network), the form is validated on submit by the server, as without
// JavaScript. (Given no validation, conform validates on submit by sending the form; asked to
// validate on blur, it would send the form on every blur.)
import type { Submission } from "@conform-to/react";
import { useEffect } from "react";
import { useTranslation } from "../i18n.ts";

type When = "onSubmit" | "onBlur" | "onInput";

export function useClientValidation<Result extends Submission<unknown, string[], unknown>>(
  validate: (formData: FormData) => Result,
  shouldValidate: When = "onBlur",
): { onValidate?: (context: { formData: FormData }) => Result; shouldValidate: When; shouldRevalidate: When } {
  const { complete } = useTranslation();
  if (!complete) return { shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" };
  return { onValidate: ({ formData }) => validate(formData), shouldValidate, shouldRevalidate: "onInput" };
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
