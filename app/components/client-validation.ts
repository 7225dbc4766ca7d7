// The validation options of conform's `useForm` for a form validated in the browser with the same
// zod schema as its route's action (docs/forms.md):
//
//   const [form, fields] = useForm({
//     lastResult: actionData?.result,
//     ...useClientValidation((formData) => parseWithZod(formData, { schema: loginSchema })),
//   });
//
// The messages are translation keys. A page carries only the texts its server render used, and the
// language's whole texts come once it is interactive (app/page-texts.ts): until they are there (they
// may never come on a flaky network), the form is validated on submit by the server, as without
// JavaScript. (Given no validation, conform validates on submit by sending the form; asked to
// validate on blur, it would send the form on every blur.)
import type { Submission } from "@conform-to/react";
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
