import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "../../i18n.ts";
import { data, Form, Link } from "react-router";
import type { Route } from "./+types/forgot-password";
import { requireAnonymous, upstream } from "../../auth.server.ts";
import { Field, FormAlert, SubmitButton } from "../../components/forms.tsx";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { useClientValidation, useFocusOnRefusal } from "../../components/client-validation.ts";
import { getT } from "../../i18n.server.ts";
import { redirectWithToast } from "../../toast.server.ts";
import { AuthFrame } from "./layout.tsx";
import { forgotPasswordSchema, identity } from "./schemas.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import type { EmailRequest, Notice, PhoneRequest } from "../../../contract/auth.ts";

export const middleware: Route.MiddlewareFunction[] = [requireAnonymous];
export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }];

export function loader({ context }: Route.LoaderArgs) {
  return { title: getT(context)("auth:forgot.title") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: forgotPasswordSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const who = identity(submission.value.identifier);
  const api = upstream(request, context);
  const answer = await api.call<Notice>("POST", "/auth/forgot-password", {
    body: who satisfies EmailRequest | PhoneRequest,
  });
  if (!answer.ok && answer.code !== "resend_too_soon") {
    if (answer.code === "invalid_phone")
      return data(
        { result: submission.reply({ fieldErrors: { identifier: ["auth:validation.identifierInvalid"] } }) },
        { status: answer.status },
      );
    const message = upstreamErrorKey(answer, "page", "common:errors.somethingWrong");
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: answer.status });
  }
  // The same answer whether or not the account exists (no enumeration).
  throw await redirectWithToast(`/reset-password?${new URLSearchParams(who)}`, {
    type: "info",
    message: "email" in who ? "auth:forgot.sent" : "auth:forgot.texted",
  });
}

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./schemas.ts")]);

export default function ForgotPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, { schema: schemas.forgotPasswordSchema }),
    ),
  });
  useFocusOnRefusal(form.id, actionData?.result);
  return (
    <AuthFrame title={t("auth:forgot.title")} subtitle={t("auth:forgot.subtitle")}>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert message={form.errors?.[0]} />
        <Field
          label={t("auth:fields.identifier")}
          {...getInputProps(fields.identifier, { type: "text" })}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          errors={fields.identifier.errors}
        />
        <SubmitButton className="btn-primary w-full">{t("auth:forgot.submit")}</SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link className="link-alone" to="/login">
          {t("auth:forgot.back")}
        </Link>
      </p>
    </AuthFrame>
  );
}
