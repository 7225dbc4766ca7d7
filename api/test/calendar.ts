// Reads an .ics file the way a calendar does (ical.js, the parser of Thunderbird's calendar), for
// the tests of the mails that carry one.
import ICAL from "ical.js";

export function readCalendar(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  // The file's own VTIMEZONE defines the zone its times are written in.
  for (const zone of calendar.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(zone);
  const events = calendar.getAllSubcomponents("vevent");
  if (events.length !== 1) throw new Error(`expected one event, found ${events.length}`);
  const event = new ICAL.Event(events[0]);
  const dtstart = events[0].getFirstProperty("dtstart")!;
  return {
    method: calendar.getFirstPropertyValue("method"),
    uid: event.uid,
    sequence: event.sequence,
    status: events[0].getFirstPropertyValue("status"),
    /** The TZID the start is written in. */
    tzid: dtstart.getParameter("tzid"),
    /** The start as written (wall-clock time in `tzid`). */
    localStart: dtstart.toICALString().split(":").at(-1),
    /** The instant the start names, read through the file's VTIMEZONE. */
    start: event.startDate.toJSDate(),
  };
}
