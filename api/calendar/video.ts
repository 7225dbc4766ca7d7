// Video rooms of online appointments (docs/calendars.md): with VIDEO_BASE_URL set, an online
// appointment that has both its parties gets a random room name, stored the first time its link
// is shown, and the link is given only from 15 minutes before the start until the end. The API
// decides the window with its own clock; the browser's is never asked.
import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { config } from "../../config.ts";
import type { Db } from "../db/index.ts";
import { appointments } from "../db/schema.ts";
import type { VideoLink } from "../../contract/calendar.ts";

const VIDEO_OPENS_BEFORE_MINUTES = 15;

type Row = Pick<
  typeof appointments.$inferSelect,
  "id" | "type" | "status" | "doctorId" | "startsAt" | "endsAt" | "videoRoom"
>;

const NONE: VideoLink = { url: null, opensAt: null, closesAt: null };

/** Online, with a doctor, and still to take place: cancelled or completed appointments have no room. */
const hasRoom = (a: Row) =>
  a.type === "online" && a.doctorId !== null && (a.status === "pending" || a.status === "confirmed");

/**
 * Room names are 128 random bits in lower-case hex: Jitsi Meet folds room names to lower case,
 * so an alphabet with both cases would lose entropy there.
 */
const newRoomName = () => randomBytes(16).toString("hex");

export async function videoLink(db: Db, a: Row, now = new Date(), base = config().VIDEO_BASE_URL): Promise<VideoLink> {
  if (!base || !hasRoom(a)) return NONE;
  const opens = new Date(a.startsAt.getTime() - VIDEO_OPENS_BEFORE_MINUTES * 60_000);
  const closes = a.endsAt;
  const window = { opensAt: opens.toISOString(), closesAt: closes.toISOString() };
  if (now < opens || now >= closes) return { url: null, ...window };
  let room = a.videoRoom;
  if (!room) {
    // Two parties opening the page at once: the first name stored wins, the other reads it.
    const [set] = await db
      .update(appointments)
      .set({ videoRoom: newRoomName() })
      .where(and(eq(appointments.id, a.id), isNull(appointments.videoRoom)))
      .returning({ room: appointments.videoRoom });
    room =
      set?.room ??
      (await db.select({ room: appointments.videoRoom }).from(appointments).where(eq(appointments.id, a.id)))[0]
        ?.room ??
      null;
  }
  return room ? { url: `${base}/${room}`, ...window } : { url: null, ...window };
}
