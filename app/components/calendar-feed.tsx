// The settings page's calendar subscription (docs/calendars.md): create, renew or stop the private
// feed address. Plain forms, so it all works without JavaScript; a new address is shown once.
import { useTranslation } from "../i18n.ts";
import { Form } from "react-router";
import { formatDate } from "../format.ts";
import { FormAlert } from "./form-alert.tsx";
import { SubmitButton } from "./submit-button.tsx";

export function CalendarFeed({
  active,
  since,
  feedUrl,
  failed,
}: {
  active: boolean;
  since: string | null;
  feedUrl?: string;
  failed?: boolean;
}) {
  const { t, i18n } = useTranslation();
  return (
    <section aria-labelledby="calendar-feed-title" className="card space-y-3">
      <h2 id="calendar-feed-title" className="text-sm font-medium">
        {t("calendar.feed.title")}
      </h2>
      <p className="text-sm text-slate-600">{t("calendar.feed.body")}</p>
      {feedUrl ? (
        <div className="space-y-2">
          <p role="status" className="text-sm font-medium text-slate-900">
            {t("calendar.feed.created")}
          </p>
          <label htmlFor="calendar-feed-url" className="label">
            {t("calendar.feed.address")}
          </label>
          <input id="calendar-feed-url" className="input font-mono text-xs" readOnly value={feedUrl} />
          <a className="link text-sm" href={feedUrl.replace(/^https?:/, "webcal:")}>
            {t("calendar.feed.open")}
          </a>
        </div>
      ) : (
        <p className="text-sm font-medium">
          {active && since
            ? t("calendar.feed.active", { date: formatDate(since, i18n.language) })
            : t("calendar.feed.none")}
        </p>
      )}
      <p className="text-sm text-slate-600">{t("calendar.feed.private")}</p>
      {failed ? <FormAlert message="common:calendar.feed.failed" /> : null}
      <Form method="post" className="flex flex-wrap gap-2">
        <SubmitButton className={active ? "btn-secondary" : "btn-primary"} name="intent" value="feedRenew">
          {t(active ? "calendar.feed.renew" : "calendar.feed.create")}
        </SubmitButton>
        {active ? (
          <SubmitButton className="btn-danger" name="intent" value="feedRevoke">
            {t("calendar.feed.revoke")}
          </SubmitButton>
        ) : null}
      </Form>
    </section>
  );
}
