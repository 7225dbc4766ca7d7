// What the patient's and the doctor's profile pages share (docs/product.md, Screens and routes): the header with its
// actions, the identity card and the details list (the edit form's frame and the gender choice are in
// profile-form.tsx, the account deletion dialog in delete-account-dialog.tsx: they load only with them). Texts come from `<role>:profile`, links go to `/<role>/profile`.
import type { ReactNode } from "react";
import { useTranslation } from "../i18n.ts";
import { Link } from "react-router";
import { Avatar } from "./avatar.tsx";
import { formatDate } from "../format.ts";
import { PageHeader } from "./page.tsx";

export type Role = "doctor" | "patient";

/** Male and female are the choices the form offers; anything else reads 'Not provided'. */
export const knownGender = (gender: string | null) => (gender === "male" || gender === "female" ? gender : null);

/** The title; outside the form, Edit, 'Download my data', a patient's 'Who saw my data' and 'Delete account'. */
export function ProfileHeader({ role, editing }: { role: Role; editing: boolean }) {
  const { t } = useTranslation();
  return (
    <PageHeader
      title={t(`${role}:profile.title`)}
      actions={
        editing ? null : (
          <>
            <Link to="?edit=1" className="btn-primary">
              {t(`${role}:profile.edit`)}
            </Link>
            <a href={`/${role}/profile/export`} className="btn-secondary" download>
              {t(`${role}:profile.download`)}
            </a>
            {role === "patient" ? (
              <Link to="/patient/profile/access" className="btn-secondary">
                {t("patient:access.title")}
              </Link>
            ) : null}
            <Link to="?delete=1" className="btn-danger">
              {t(`${role}:profile.delete`)}
            </Link>
          </>
        )
      }
    />
  );
}

/** The identity card: avatar, name, role badge, e-mail, the given lines (empty ones left out) and the join date. */
export function ProfileCard(props: {
  role: Role;
  name: string;
  title: string;
  avatarUrl: string | null;
  /** None for a patient who signs in with their phone. */
  email: string | null;
  lines: (string | null)[];
  createdAt: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <aside className="card flex flex-col items-center gap-2 text-center">
      <Avatar name={props.name} url={props.avatarUrl} size="lg" />
      <h2 className="text-lg font-semibold">{props.title}</h2>
      <span className="rounded-full bg-brand-50 px-3 py-0.5 text-sm font-semibold text-brand-800">
        {t(`${props.role}:profile.badge`)}
      </span>
      {props.email ? <p className="text-sm text-slate-700">{props.email}</p> : null}
      {props.lines.map((line, i) =>
        line ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed lines rendered once; two may be equal
          <p key={i} className="text-sm whitespace-pre-line text-slate-700">
            {line}
          </p>
        ) : null,
      )}
      <p className="text-xs text-slate-600">
        {t(`${props.role}:profile.memberSince`, { date: formatDate(props.createdAt, i18n.language) })}
      </p>
    </aside>
  );
}

/** The details as label and value; an empty value reads 'Not provided'. */
export function ProfileFacts({
  role,
  facts,
}: {
  role: Role;
  facts: [label: string, value: string | null | undefined][];
}) {
  const { t } = useTranslation();
  return (
    <dl className="grid gap-4 sm:grid-cols-2">
      {facts.map(([label, value]) => (
        <div key={label}>
          <dt className="text-sm font-medium text-slate-700">{label}</dt>
          <dd className="whitespace-pre-line text-slate-900">{value || t(`${role}:profile.notProvided`)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The page around the card and the details (the form when editing, the list otherwise). */
export function ProfileLayout({ card, title, children }: { card: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="grid gap-4 lg:grid-cols-[18rem_1fr]">
      {card}
      <div className="card space-y-4">
        <h2 className="text-lg font-semibold">{title}</h2>
        {children}
      </div>
    </div>
  );
}
