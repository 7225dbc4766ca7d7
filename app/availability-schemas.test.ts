// The availability forms and the API must agree: a value the form lets through is one the API
// accepts, and a value at the API's bounds is one the form refuses with a message of its own, so
// the browser (conform) says it beside the field before anything is sent.
import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod/v4";
import { absenceBody, closureBody, workingPlan } from "../contract/availability.ts";
import {
  CALENDAR_REASON_MAX,
  MAX_ABSENCE_DAYS,
  MAX_HORIZON_DAYS,
  MAX_NOTICE_HOURS,
  SLOTS,
  WEEKDAYS,
} from "../contract/constants.ts";
import { absenceSchema, closureSchema, planSchema } from "./availability-schemas.ts";

const TODAY = "2026-12-01";
const form = (fields: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
};
const plan = (notice: string, horizon: string, week: [string, string][] = []) =>
  parseWithZod(form([...week, ["minimumNoticeHours", notice], ["bookingHorizonDays", horizon]]), {
    schema: planSchema,
  });

describe("the working plan form", () => {
  it("sends the week the API reads: checked boxes per day, the unchecked days as empty lists", () => {
    const sent = plan("2", "90", [
      ["week.saturday", "09:00"],
      ["week.saturday", "10:00"],
      ["week.monday", "14:00"],
    ]);
    expect(sent.status).toBe("success");
    if (sent.status !== "success") return;
    expect(sent.value.week).toEqual({
      monday: ["14:00"],
      tuesday: [],
      wednesday: [],
      thursday: [],
      friday: [],
      saturday: ["09:00", "10:00"],
      sunday: [],
    });
    expect(workingPlan.safeParse(sent.value).success).toBe(true);
    expect(Object.keys(sent.value.week)).toEqual([...WEEKDAYS]);
  });

  it.each([
    ["-1", "90", "minimumNoticeHours", "doctor:availability.noticeRange"],
    [String(MAX_NOTICE_HOURS + 1), "90", "minimumNoticeHours", "doctor:availability.noticeRange"],
    ["1.5", "90", "minimumNoticeHours", "doctor:availability.noticeRange"],
    ["", "90", "minimumNoticeHours", "doctor:availability.noticeRequired"],
    ["2", "0", "bookingHorizonDays", "doctor:availability.horizonRange"],
    ["2", String(MAX_HORIZON_DAYS + 1), "bookingHorizonDays", "doctor:availability.horizonRange"],
  ])("refuses notice %s and horizon %s beside %s, as the API would", (notice, horizon, field, message) => {
    const sent = plan(notice, horizon);
    expect(sent.status).toBe("error");
    expect(sent.reply().error?.[field]).toEqual([message]);
    if (notice !== "")
      expect(
        workingPlan.safeParse({ week: {}, minimumNoticeHours: Number(notice), bookingHorizonDays: Number(horizon) })
          .success,
      ).toBe(false);
  });

  it("refuses a slot off the grid", () => {
    const sent = plan("2", "90", [["week.monday", "12:00"]]);
    expect(sent.reply().error?.["week.monday[0]"]).toEqual(["doctor:availability.slotInvalid"]);
  });

  it("accepts the bounds the API accepts", () => {
    for (const [notice, horizon] of [
      ["0", "1"],
      [String(MAX_NOTICE_HOURS), String(MAX_HORIZON_DAYS)],
    ]) {
      const sent = plan(
        notice,
        horizon,
        SLOTS.map((s) => ["week.friday", s]),
      );
      expect(sent.status, `${notice} ${horizon}`).toBe("success");
      if (sent.status === "success") expect(workingPlan.safeParse(sent.value).success).toBe(true);
    }
  });
});

describe("the absence form", () => {
  const absence = (from: string, to: string, reason = "") =>
    parseWithZod(
      form([
        ["from", from],
        ["to", to],
        ["reason", reason],
      ]),
      { schema: absenceSchema(TODAY) },
    );
  const dayAfter = (day: string, n: number) =>
    new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

  it("sends a period the API accepts, begun or not, of at most MAX_ABSENCE_DAYS", () => {
    for (const [from, to] of [
      [TODAY, TODAY],
      ["2026-11-20", TODAY],
      [TODAY, dayAfter(TODAY, MAX_ABSENCE_DAYS - 1)],
    ]) {
      const sent = absence(from, to, "Conference");
      expect(sent.status, `${from} ${to}`).toBe("success");
      if (sent.status === "success") expect(absenceBody.safeParse(sent.value).success).toBe(true);
    }
  });

  it.each([
    ["an end before the start", "2026-12-05", "2026-12-04", "to", "doctor:availability.toBeforeFrom"],
    ["a period over already", "2026-11-20", "2026-11-30", "to", "common:calendarDays.past"],
    ["a period too long", TODAY, dayAfter(TODAY, MAX_ABSENCE_DAYS), "to", "doctor:availability.tooLong"],
    ["a date that does not exist", "2026-02-31", "2026-12-04", "from", "doctor:availability.fromRequired"],
    ["no end", TODAY, "", "to", "doctor:availability.toRequired"],
  ])("refuses %s beside the field", (_what, from, to, field, message) => {
    expect(absence(from, to).reply().error?.[field]).toEqual([message]);
  });

  it("refuses a reason longer than the API keeps", () => {
    expect(absence(TODAY, TODAY, "x".repeat(CALENDAR_REASON_MAX + 1)).reply().error?.reason).toEqual([
      "common:calendarDays.reasonTooLong",
    ]);
    expect(absenceBody.safeParse({ from: TODAY, to: TODAY, reason: "x".repeat(CALENDAR_REASON_MAX + 1) }).success).toBe(
      false,
    );
  });
});

describe("the closed day form", () => {
  const closure = (date: string, reason: string) =>
    parseWithZod(
      form([
        ["date", date],
        ["reason", reason],
      ]),
      { schema: closureSchema(TODAY) },
    );

  it("sends what the API accepts, and says what is missing", () => {
    const sent = closure("2027-03-26", "Good Friday");
    expect(sent.status).toBe("success");
    if (sent.status === "success") expect(closureBody.safeParse(sent.value).success).toBe(true);
    expect(closure("2027-03-26", "  ").reply().error?.reason).toEqual(["admin:closures.reasonRequired"]);
    expect(closure("2026-11-30", "Eid").reply().error?.date).toEqual(["common:calendarDays.past"]);
    expect(closure("", "Eid").reply().error?.date).toEqual(["admin:closures.dateRequired"]);
  });
});
