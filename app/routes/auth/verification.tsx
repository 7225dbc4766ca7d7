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
import type { CodeRequest, EmailRequest, Notice, SessionUser } from "../../../contract/auth.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.title }];

/** userId and email come from the query (userId, email), else the pending-verification cookie. */
async function whoIsVerifying(request: Request) {
  const params = new URL(request.url).searchParams;
  const pending = await readPendingVerification(request);
  const userId = params.get("userId") || pending?.userId || "";
  const email = params.get("email") || pending?.email || "";
  return { userId, email };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { userId, email } = await whoIsVerifying(request);
  if (!userId && !email)
    throw await redirectWithToast("/register", { type: "error", message: "auth:verification.missingUser" });
  return { title: getT(context)("auth:verification.title"), email };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const { userId, email } = await whoIsVerifying(request);
  const api = upstream(request, context);

  if (formData.get("intent") === "resend") {
    if (!email) return data({ error: "auth:verification.missingUser", notice: null }, { status: 400 });
    const answer = await api.call<Notice>("POST", "/auth/resendVerification", {
      body: { email } satisfies EmailRequest,
    });
    if (!answer.ok)
      return data(
        { error: upstreamErrorKey(answer, "code", "auth:verification.resendFailed"), notice: null },
        { status: answer.status },
      );
    return { error: null, notice: "auth:verification.resent" };
  }

  if (!userId) return data({ error: "auth:verification.missingUserId", notice: null }, { status: 400 });
  const code = readCode(formData);
  const parsed = codeSchema.safeParse(code);
  if (!parsed.success) return data({ error: "auth:validation.codeIncomplete", notice: null }, { status: 400 });
  const answer = await api.call<SessionUser>("PUT", `/auth/verifyUser/${encodeURIComponent(userId)}`, {
    body: { otpCode: code } satisfies CodeRequest,
  });
  if (!answer.ok) {
    return data(
      { error: upstreamErrorKey(answer, "code", "auth:verification.failed"), notice: null },
      { status: answer.status },
    );
  }
  const headers = new Headers();
  headers.append("Set-Cookie", await clearPendingVerification());
  headers.append("Set-Cookie", await toastCookie({ type: "success", message: "auth:verification.success" }));
  // 'Account verified' is the flash above, shown once; the address only prefills the e-mail.
  const target = new URLSearchParams({ email: answer.data?.email ?? email });
  throw redirect(`/login?${target}`, { headers });
}

export default function Verification({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <AuthFrame
      title={t("auth:verification.title")}
      subtitle={t("auth:verification.codeSent", { email: loaderData.email })}
    >
      <CodeForm error={actionData?.error} notice={actionData?.notice}>
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
