import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "../../i18n.ts";
import { data, Form, Link, useSearchParams } from "react-router";
import type { Route } from "./+types/reset-password";
import { requireAnonymous, upstream } from "../../auth.server.ts";
import { CodeInput, readCode } from "../../components/code-input.tsx";
import { Field, FieldErrors, FormAlert, SubmitButton } from "../../components/forms.tsx";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { useClientValidation, useFocusOnRefusal } from "../../components/client-validation.ts";
import { getT } from "../../i18n.server.ts";
import { redirectWithToast } from "../../toast.server.ts";
import { AuthFrame } from "./layout.tsx";
import { identity, resetPasswordSchema } from "./schemas.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import type { Notice, PasswordReset } from "../../../contract/auth.ts";

export const middleware: Route.MiddlewareFunction[] = [requireAnonymous];
export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }];

export function loader({ context }: Route.LoaderArgs) {
  return { title: getT(context)("auth:reset.title") };
}

/** The six boxes post code0..code5; the schema validates them as one `code`. */
function withCode(formData: FormData) {
  formData.set("code", readCode(formData));
  return formData;
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(withCode(await request.formData()), { schema: resetPasswordSchema });
  const hidden = { hideFields: ["password", "confirmPassword"] };
  if (submission.status !== "success") return data({ result: submission.reply(hidden) }, { status: 400 });
  const { identifier, code, password } = submission.value;
  const who = identity(identifier);
  const api = upstream(request, context);
  const answer = await api.call<Notice>("POST", "/auth/reset-password", {
    body: { ...who, code, password } satisfies PasswordReset,
  });
  if (!answer.ok) {
    return data(
      {
        result: submission.reply({
          formErrors: [upstreamErrorKey(answer, "code", "auth:verification.invalidCode")],
          ...hidden,
        }),
      },
      { status: answer.status },
    );
  }
  throw await redirectWithToast(`/login?${new URLSearchParams(who)}`, {
    type: "success",
    message: "auth:reset.success",
  });
}

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./schemas.ts")]);

export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: { identifier: params.get("email") ?? params.get("phone") ?? "" },
    ...useClientValidation(
      loadValidation,
      ([zod, schemas], formData) => zod.parseWithZod(withCode(formData), { schema: schemas.resetPasswordSchema }),
      "onSubmit",
    ),
  });
  useFocusOnRefusal(form.id, actionData?.result);
  return (
    <AuthFrame
      title={t("auth:reset.title")}
      subtitle={t(params.get("phone") ? "auth:reset.subtitleSms" : "auth:reset.subtitle")}
    >
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
        <div>
          <p className="label">{t(params.get("phone") ? "auth:reset.codeLabelSms" : "auth:reset.codeLabel")}</p>
          <CodeInput
            invalid={Boolean(fields.code.errors)}
            describedBy={fields.code.errors ? "code-error" : undefined}
          />
          <FieldErrors id="code-error" errors={fields.code.errors} />
        </div>
        <Field
          label={t("auth:fields.newPassword")}
          {...getInputProps(fields.password, { type: "password" })}
          autoComplete="new-password"
          errors={fields.password.errors}
        />
        <Field
          label={t("auth:fields.confirmPassword")}
          {...getInputProps(fields.confirmPassword, { type: "password" })}
          autoComplete="new-password"
          errors={fields.confirmPassword.errors}
        />
        <SubmitButton className="btn-primary w-full">{t("auth:reset.submit")}</SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm">
        <Link className="link-alone" to="/forgot-password">
          {t("auth:reset.again")}
        </Link>
      </p>
    </AuthFrame>
  );
}
