import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "../../i18n.ts";
import { data, Form, Link, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { requireAnonymous, safeRedirect, upstream } from "../../auth.server.ts";
import { Field, FormAlert, SubmitButton } from "../../components/forms.tsx";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { useClientValidation, useFocusOnRefusal } from "../../components/client-validation.ts";
import { getLanguage, getT } from "../../i18n.server.ts";
import { savePendingVerification } from "../../pending-verification.server.ts";
import { COOKIE_CHECK, cookiesCameBack, getSession, isRole, roleHome, sessionStorage } from "../../session.server.ts";
import { toastCookie } from "../../toast.server.ts";
import { AuthFrame, LegalLinks } from "./layout.tsx";
import { identity, loginSchema } from "./schemas.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import type { LoggedIn, LoginRequest } from "../../../contract/auth.ts";
import type { SettingsChange } from "../../../contract/settings.ts";

export const middleware: Route.MiddlewareFunction[] = [requireAnonymous];

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }];

export function loader({ context }: Route.LoaderArgs) {
  return data({ title: getT(context)("auth:login.title") }, { headers: { "Set-Cookie": COOKIE_CHECK } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  // The field was `email` before phones signed in: scripts and old pages that post it still sign in.
  const legacy = formData.get("email");
  if (!formData.has("identifier") && typeof legacy === "string") formData.set("identifier", legacy);
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  if (!cookiesCameBack(request)) {
    // Blocked cookies: a login would not survive the redirect, so say why instead of trying.
    const reply = submission.reply({ formErrors: ["auth:login.cookiesBlocked"], hideFields: ["password"] });
    return data({ result: reply }, { status: 400, headers: { "Set-Cookie": COOKIE_CHECK } });
  }
  const { identifier, password, role, redirectTo } = submission.value;
  const who = identity(identifier);
  const api = upstream(request, context);
  const answer = await api.call<LoggedIn>("POST", "/auth/login", {
    body: { ...who, password, role } satisfies LoginRequest,
  });
  if (!answer.ok) {
    if (answer.code === "unverified" && typeof answer.body.userId === "string") {
      const headers = new Headers();
      const pending =
        "email" in who
          ? await savePendingVerification(answer.body.userId, who.email)
          : await savePendingVerification(answer.body.userId, "", who.phone);
      headers.append("Set-Cookie", pending);
      headers.append("Set-Cookie", await toastCookie({ type: "info", message: "auth:login.verifyFirst" }));
      throw redirect("/verification", { headers });
    }
    // A number the API cannot read is said on the field, like the browser's own check.
    if (answer.code === "invalid_phone")
      return data(
        {
          result: submission.reply({
            fieldErrors: { identifier: ["auth:validation.identifierInvalid"] },
            hideFields: ["password"],
          }),
        },
        { status: answer.status },
      );
    const message = upstreamErrorKey(answer, "login", "auth:login.failed");
    return data(
      { result: submission.reply({ formErrors: [message], hideFields: ["password"] }) },
      { status: answer.status },
    );
  }
  const { data: user, token } = answer.data;
  const userRole = isRole(user.userRole) ? user.userRole : "patient";
  const session = await getSession(request);
  session.set("token", token.token);
  session.set("user", { id: user.id, role: userRole, username: user.username, avatarUrl: user.avatarUrl });
  const headers = new Headers();
  headers.append("Set-Cookie", await sessionStorage.commitSession(session));
  headers.append("Set-Cookie", await toastCookie({ type: "success", message: "auth:login.success" }));
  // The pages and the mail of a signed-in user speak one language (docs/mail.md; the settings page
  // says so): the page's becomes the account's, as the language menu makes it once signed in. A
  // failed call leaves the account's as it was: signing in goes on.
  await upstream(request, context, { token: token.token }).call("PUT", "/settings", {
    body: { language: getLanguage(context) } satisfies SettingsChange,
  });
  throw redirect(safeRedirect(redirectTo, roleHome(userRole)), { headers });
}

/** The login form's role choice: the admin signs in with any of them (docs/product.md, Roles and homes). */
const LOGIN_ROLES = ["patient", "doctor", "receptionist"] as const;
const loginRoleOf = (value: string | null) => LOGIN_ROLES.find((role) => role === value) ?? "patient";

// conform's zod parse and the schema, loaded at the user's first act (client-validation.ts).
const loadValidation = () => Promise.all([import("@conform-to/zod/v4"), import("./schemas.ts")]);

export default function Login({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [form, fields] = useForm({
    lastResult: actionData?.result,
    defaultValue: {
      identifier: params.get("email") ?? params.get("phone") ?? "",
      role: loginRoleOf(params.get("role")),
    },
    ...useClientValidation(loadValidation, ([zod, schemas], formData) =>
      zod.parseWithZod(formData, { schema: schemas.loginSchema }),
    ),
  });
  useFocusOnRefusal(form.id, actionData?.result);
  return (
    <AuthFrame title={t("auth:login.title")} subtitle={t("auth:login.subtitle")}>
      <Form method="post" className="space-y-4" {...getFormProps(form)}>
        <FormAlert message={form.errors?.[0]} />
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
        <fieldset>
          <legend className="label">{t("auth:login.roleLabel")}</legend>
          <div className="flex flex-wrap gap-2">
            {LOGIN_ROLES.map((role) => (
              <label
                key={role}
                className="flex flex-auto cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm has-checked:border-brand-600 has-checked:bg-brand-50"
              >
                <input
                  {...getInputProps(fields.role, { type: "radio", value: role })}
                  id={`${fields.role.id}-${role}`}
                  key={role}
                />
                {t(`auth:roles.${role}`)}
              </label>
            ))}
          </div>
          {fields.role.errors ? <p className="field-error">{t(fields.role.errors[0])}</p> : null}
        </fieldset>
        <Field
          label={t("auth:fields.identifier")}
          {...getInputProps(fields.identifier, { type: "text" })}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          errors={fields.identifier.errors}
        />
        <Field
          label={t("auth:fields.password")}
          {...getInputProps(fields.password, { type: "password" })}
          autoComplete="current-password"
          errors={fields.password.errors}
        />
        <div className="text-right text-sm">
          <Link className="link-alone" to="/forgot-password">
            {t("auth:login.forgotPassword")}
          </Link>
        </div>
        <SubmitButton className="btn-primary w-full">{t("auth:login.submit")}</SubmitButton>
      </Form>
      <div className="my-4 flex items-center gap-3 text-xs text-slate-600" aria-hidden="true">
        <span className="h-px flex-1 bg-slate-200" />
        {t("auth:login.or")}
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <button type="button" className="btn-secondary w-full" disabled aria-describedby="google-soon">
        {t("auth:login.google")}
      </button>
      <p id="google-soon" className="mt-1 text-center text-xs text-slate-600">
        {t("auth:login.googleSoon")}
      </p>
      <p className="mt-6 text-center text-sm text-slate-700">
        {t("auth:login.noAccount")}{" "}
        <Link className="link" to="/register">
          {t("auth:login.registerLink")}
        </Link>
      </p>
      <LegalLinks />
    </AuthFrame>
  );
}
