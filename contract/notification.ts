// The wire of the bell (docs/product.md, The bell): GET /notification, the bell's part of the
// /patient/summary and /doctor/summary answers, and POST /notification/seen.
import { z } from "zod";
import { APPOINTMENT_CATEGORIES, APPOINTMENT_STATUSES, NOTIFICATION_KINDS } from "./constants.ts";
import { pageFields, pagination } from "./fields.ts";

export type { NotificationKind } from "./constants.ts";

const NOTIFICATION_PAGE_SIZE = 20;
const NOTIFICATION_PAGE_MAX = 50;

/** GET /notification, and ?notifications=<page> of the summaries. */
export const notificationListQuery = z.object({ ...pagination(NOTIFICATION_PAGE_SIZE, NOTIFICATION_PAGE_MAX) });

const notification = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** Unseen until this view (which marked it seen). */
  new: z.boolean(),
  createdAt: z.string(),
  /** null: the account was erased, which the screens write as a deleted user. */
  actorName: z.string().nullable(),
  Appointment: z.object({
    id: z.string(),
    date: z.string(),
    time: z.string(),
    status: z.enum(APPOINTMENT_STATUSES),
    category: z.enum(APPOINTMENT_CATEGORIES),
    assigned: z.boolean(),
  }),
});
export type Notification = z.infer<typeof notification>;

const notificationPage = z.object({ items: z.array(notification), ...pageFields });

/** The bell's part of /patient/summary and /doctor/summary: the unseen count, and with ?notifications=<page> that page (seen from now on). */
export const bell = z.object({ count: z.number().int(), notifications: notificationPage.optional() });

/** GET /notification: a page, and how many are still unseen once it is shown. */
export const notificationList = notificationPage.extend({ unseen: z.number().int() });
