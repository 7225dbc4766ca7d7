// In an appointment's dialog, for its patient or its doctor: the video consultation link while it
// is open (a plain link to the video service: nothing of that origin loads in our pages), when it
// will appear, and 'Add to my calendar', a download that needs no JavaScript (docs/calendars.md).
import { useTranslation } from "../i18n.ts";
import type { VideoLink } from "../video-link.ts";

export function AppointmentCalendar({ appointmentId, video }: { appointmentId: string; video: VideoLink | null }) {
  const { t } = useTranslation();
  return (
    <div className="mt-4 space-y-2">
      {video?.opensAt ? (
        <p className="text-sm text-slate-700">{t("calendar.video.opensAt", { time: video.opensAt })}</p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        {video?.url ? (
          <a href={video.url} target="_blank" rel="noopener noreferrer" className="btn-primary">
            {t("calendar.video.join")}
            <span className="sr-only"> ({t("calendar.video.newTab")})</span>
          </a>
        ) : null}
        <a href={`/appointments/${encodeURIComponent(appointmentId)}/calendar`} download className="btn-secondary">
          {t("calendar.download")}
        </a>
      </div>
    </div>
  );
}
