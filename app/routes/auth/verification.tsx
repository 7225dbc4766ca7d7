import { useTranslation } from "../../i18n.ts";
import { data, Form, redirect } from "react-router";
import type { Route } from "./+types/verification";
import { CodeForm, readCode } from "../../components/code-input.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { getT } from "../../i18n.server.ts";
import { clearPendingVerification, readPendingVerification } from "../../pending-verification.server.ts";
import { redirectWithToast, toastCookie } from "../../toast.server.ts";
import { upstream } from "../../auth.server.ts";
import { AuthFrame } from "./layout.tsx";
import { codeSchema } from "./schemas.ts";
import { upstreamErrorKey } from "../../upstream-errors.ts";
import { maskPhone } from "../../phone-mask.server.ts";
import { Field } from "../../components/forms.tsx";
import type { EmailRequest, Notice, PhoneRequest, SessionUser, VerifyRequest } from "../../../contract/auth.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }];

/**
 * userId and where the code went (email, or phone for a sign-up by phone) come from the query, else
 * the pending-verification cookie.
 */
async function whoIsVerifying(request: Request) {
  const params = new URL(request.url).searchParams;
  const pending = await readPendingVerification(request);
  const userId = params.get("userId") || pending?.userId || "";
  const email = params.get("email") || pending?.email || "";
  const phone = email ? "" : params.get("phone") || pending?.phone || "";
  return { userId, email, phone };
}

/** The refusals that ask for the date of birth a front desk recorded (docs/sms.md, Claiming a desk record). */
const BIRTH_CODES = new Set(["date_of_birth_required", "date_of_birth_mismatch"]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const { userId, email, phone } = await whoIsVerifying(request);
  if (!userId && !email && !phone)
    throw await redirectWithToast("/register", { type: "error", message: "auth:verification.missingUser" });
  // The number partly hidden: the patient recognises it, a neighbour's eyes do not learn it.
  return { title: getT(context)("auth:verification.title"), email, phone: phone ? maskPhone(phone) : "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const { userId, email, phone } = await whoIsVerifying(request);
  const api = upstream(request, context);
  const birth = formData.get("dateOfBirth");
  const askBirth = typeof birth === "string";

  if (formData.get("intent") === "resend") {
    if (!email && !phone)
      return data({ error: "auth:verification.missingUser", notice: null, askBirth, birth: null }, { status: 400 });
    const answer = await api.call<Notice>("POST", "/auth/resendVerification", {
      body: (email ? { email } : { phone }) satisfies EmailRequest | PhoneRequest,
    });
    if (!answer.ok)
      return data(
        {
          error: upstreamErrorKey(answer, "code", "auth:verification.resendFailed"),
          notice: null,
          askBirth,
          birth: null,
        },
        { status: answer.status },
      );
    return {
      error: null,
      notice: email ? "auth:verification.resent" : "auth:verification.resentSms",
      askBirth,
      birth: null,
    };
  }

  if (!userId)
    return data({ error: "auth:verification.missingUserId", notice: null, askBirth, birth: null }, { status: 400 });
  const code = readCode(formData);
  const parsed = codeSchema.safeParse(code);
  if (!parsed.success)
    return data({ error: "auth:validation.codeIncomplete", notice: null, askBirth, birth: null }, { status: 400 });
  const answer = await api.call<SessionUser>("PUT", `/auth/verifyUser/${encodeURIComponent(userId)}`, {
    body: { otpCode: code, dateOfBirth: askBirth ? birth : undefined } satisfies VerifyRequest,
  });
  if (!answer.ok) {
    const error = upstreamErrorKey(answer, "code", "auth:verification.failed");
    // A missing or wrong date of birth is said beside its field, the date as typed kept in it.
    const aboutBirth = BIRTH_CODES.has(answer.code ?? "");
    return data(
      {
        error: aboutBirth ? null : error,
        notice: null,
        askBirth: askBirth || aboutBirth,
        birth: aboutBirth ? { error, value: typeof birth === "string" ? birth : "" } : null,
      },
      { status: answer.status },
    );
  }
  const headers = new Headers();
  headers.append("Set-Cookie", await clearPendingVerification());
  headers.append("Set-Cookie", await toastCookie({ type: "success", message: "auth:verification.success" }));
  // 'Account verified' is the flash above, shown once; the address or number only prefills the login.
  const target = new URLSearchParams(answer.data.email || email ? { email: answer.data.email ?? email } : { phone });
  throw redirect(`/login?${target}`, { headers });
}

export default function Verification({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <AuthFrame
      title={t("auth:verification.title")}
      subtitle={
        loaderData.phone
          ? t("auth:verification.codeTexted", { phone: loaderData.phone })
          : t("auth:verification.codeSent", { email: loaderData.email })
      }
    >
      <CodeForm
        error={actionData?.error}
        notice={actionData?.notice}
        extra={
          actionData?.askBirth ? (
            <Field
              label={t("auth:verification.birthLabel")}
              hint={t("auth:verification.birthHint")}
              name="dateOfBirth"
              type="date"
              required
              autoComplete="bday"
              defaultValue={actionData.birth?.value}
              errors={actionData.birth ? [actionData.birth.error] : null}
            />
          ) : null
        }
      >
        {t("auth:verification.submit")}
      </CodeForm>
      <Form method="post" className="mt-4 text-center">
        <p className="text-sm text-slate-700">{t("auth:verification.noCode")}</p>
        <SubmitButton className="btn-secondary mt-2" name="intent" value="resend">
          {t("auth:verification.forgotCode")}
        </SubmitButton>
      </Form>
    </AuthFrame>
  );
}
