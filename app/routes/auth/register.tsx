import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "../../i18n.ts";
import { data, Form, Link, redirect } from "react-router";
import type { Route } from "./+types/register";
import { requireAnonymous, upstream } from "../../auth.server.ts";
import { Field, FormAlert, SubmitButton } from "../../components/forms.tsx";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { useClientValidation, useFocusOnRefusal } from "../../components/client-validation.ts";
import { getLanguage, getT } from "../../i18n.server.ts";
import { isPhoneNumber } from "../../phone.server.ts";
import { savePendingVerification } from "../../pending-verification.server.ts";
import { toastCookie } from "../../toast.server.ts";
import { AuthFrame, LegalLinks } from "./layout.tsx";
import { doctorRegisterSchema, patientRegisterSchema } from "./register-schema.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import type { Registered, Registration } from "../../../contract/auth.ts";

export const middleware: Route.MiddlewareFunction[] = [requireAnonymous];

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }];

type RegisterRole = "patient" | "doctor";
const roleOf = (value: unknown): RegisterRole => (value === "doctor" ? "doctor" : "patient");
// The action's schema: the browser's, with the server's phone check (the numbering plans).
const schemaFor = (role: RegisterRole) =>
  role === "doctor" ? doctorRegisterSchema(isPhoneNumber) : patientRegisterSchema(isPhoneNumber);

export function loader({ request, context }: Route.LoaderArgs) {
  return { title: getT(context)("auth:register.title"), role: roleOf(new URL(request.url).searchParams.get("role")) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const role = roleOf(formData.get("role"));
  const submission = parseWithZod(formData, { schema: schemaFor(role) });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password", "confirmPassword"] }) }, { status: 400 });
  }
  const v = submission.value;
  const language = getLanguage(context);
  const payload: Registration =
    v.role === "doctor"
      ? {
          username: v.username,
          email: v.email,
          contact: v.contact,
          password: v.password,
          serial_number: v.serial_number,
          userRole: "doctor",
          locale: language,
        }
      : {
          username: v.username,
          email: v.email,
          phone: v.phone,
          password: v.password,
          userRole: "patient",
          locale: language,
        };
  const api = upstream(request, context);
  const answer = await api.call<Registered>("POST", "/auth/register", { body: payload });
  if (!answer.ok) {
    const message = upstreamErrorKey(answer, "page", "auth:register.failed");
    return data(
      { result: submission.reply({ formErrors: [message], hideFields: ["password", "confirmPassword"] }) },
      { status: answer.status },
    );
  }
  const headers = new Headers();
  const { id, email, phone } = answer.data;
  headers.append("Set-Cookie", await savePendingVerification(id, email ?? "", phone ?? undefined));
  const success = phone ? "auth:register.successSms" : "auth:register.success";
  headers.append("Set-Cookie", await toastCookie({ type: "success", message: success }));
  throw redirect("/verification", { headers });
}

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./register-schema.ts")]);

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const role = loaderData.role;
  const [form, fields] = useForm({
    id: `register-${role}`,
    lastResult: actionData?.result,
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, {
        schema: role === "doctor" ? schemas.doctorRegisterSchema() : schemas.patientRegisterSchema(),
      }),
    ),
  });
  useFocusOnRefusal(form.id, actionData?.result);
  const f = fields as Record<string, (typeof fields)[keyof typeof fields]>;
  const field = (
    name: string,
    label: string,
    type: "text" | "email" | "tel" | "password",
    autoComplete: string,
    hint?: string,
  ) => (
    <Field
      label={t(label)}
      {...getInputProps(f[name], { type })}
      autoComplete={autoComplete}
      errors={f[name].errors}
      hint={hint ? t(hint) : undefined}
    />
  );
  return (
    <AuthFrame title={t("auth:register.title")} subtitle={t("auth:register.subtitle")}>
      <nav aria-label={t("auth:register.roleLabel")} className="mb-4 grid grid-cols-2 gap-2">
        {(["patient", "doctor"] as const).map((r) => (
          <Link
            key={r}
            to={`/register?role=${r}`}
            aria-current={r === role ? "page" : undefined}
            className={`rounded-md border px-3 py-2 text-center text-sm font-medium ${r === role ? "border-brand-600 bg-brand-50 text-brand-800" : "border-slate-300 bg-white text-slate-800"}`}
          >
            {t(`auth:roles.${r}`)}
          </Link>
        ))}
      </nav>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert message={form.errors?.[0]} />
        <input type="hidden" name="role" value={role} />
        {role === "doctor"
          ? [
              field("serial_number", "auth:fields.serialNumber", "text", "off"),
              field("username", "auth:fields.doctorName", "text", "name"),
              field("email", "auth:fields.email", "email", "email"),
              field("contact", "auth:fields.contact", "tel", "tel"),
            ]
          : [
              field("username", "auth:fields.username", "text", "username"),
              field("phone", "auth:fields.phone", "tel", "tel", "auth:register.phoneHint"),
              field("email", "auth:fields.emailOptional", "email", "email", "auth:register.emailHint"),
            ]}
        {field("password", "auth:fields.password", "password", "new-password")}
        {field("confirmPassword", "auth:fields.confirmPassword", "password", "new-password")}
        <SubmitButton className="btn-primary w-full">{t(`auth:register.submit.${role}`)}</SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-slate-700">
        {t("auth:register.haveAccount")}{" "}
        <Link className="link" to="/login">
          {t("auth:register.loginLink")}
        </Link>
      </p>
      <LegalLinks />
    </AuthFrame>
  );
}
