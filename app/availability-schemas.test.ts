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
import { absenceSchema, closureSchema, planBody, planSchema, planValues } from "./availability-schemas.ts";
import { addDays } from "../contract/days.ts";

const TODAY = "2026-12-01";
const form = (fields: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
};
const plan = (notice: string, horizon: string, days: [string, string][] = [], visitMinutes = "60") =>
  parseWithZod(
    form([["visitMinutes", visitMinutes], ...days, ["minimumNoticeHours", notice], ["bookingHorizonDays", horizon]]),
    { schema: planSchema },
  );

describe("the working plan form", () => {
  it("sends the week the API reads: each day's periods cut into visits, the days without one as empty lists", () => {
    const sent = plan(
      "2",
      "90",
      [
        ["days.monday[0].from", "13:00"],
        ["days.monday[0].to", "16:00"],
        ["days.monday[1].from", "08:00"],
        ["days.monday[1].to", "12:00"],
        ["days.monday[2].from", ""],
        ["days.monday[2].to", ""],
        ["days.saturday[0].from", "09:00"],
        ["days.saturday[0].to", "09:50"],
      ],
      "20",
    );
    expect(sent.status).toBe("success");
    if (sent.status !== "success") return;
    const body = planBody(sent.value);
    expect(body.week.monday).toHaveLength(21);
    expect(body.week.monday.slice(0, 3)).toEqual(["08:00", "08:20", "08:40"]);
    expect(body.week.monday.slice(11, 13)).toEqual(["11:40", "13:00"]);
    expect(body.week.saturday).toEqual(["09:00", "09:20"]);
    expect(body.week.tuesday).toEqual([]);
    expect(Object.keys(body.week)).toEqual([...WEEKDAYS]);
    expect(workingPlan.safeParse(body).success).toBe(true);
  });

  it("shows a saved plan as the periods it was made of", () => {
    const values = planValues({
      week: { monday: ["08:00", "08:20", "08:40", "13:00", "13:20"] },
      visitMinutes: 20,
      minimumNoticeHours: 2,
      bookingHorizonDays: 90,
    });
    expect(values.days.monday).toEqual([
      { from: "08:00", to: "09:00" },
      { from: "13:00", to: "13:40" },
    ]);
    expect(values.days.sunday).toEqual([]);
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

  it.each([
    ["4", "doctor:availability.visitRange"],
    ["125", "doctor:availability.visitRange"],
    ["17", "doctor:availability.visitRange"],
    ["", "doctor:availability.visitRequired"],
  ])("refuses a visit of %s minutes", (minutes, message) => {
    expect(plan("2", "90", [], minutes).reply().error?.visitMinutes).toEqual([message]);
  });

  it.each([
    ["12:00", "08:00", "days.monday[0].to", "doctor:availability.periodToBeforeFrom"],
    ["08:03", "12:00", "days.monday[0].from", "doctor:availability.periodOffGrid"],
    ["05:00", "12:00", "days.monday[0].from", "doctor:availability.periodOffGrid"],
    ["20:00", "22:30", "days.monday[0].to", "doctor:availability.periodOffGrid"],
    ["08:00", "", "days.monday[0].to", "doctor:availability.periodToRequired"],
    ["", "12:00", "days.monday[0].from", "doctor:availability.periodFromRequired"],
    ["08:00", "08:15", "days.monday[0].to", "doctor:availability.periodTooShort"],
  ])("refuses the period %s to %s beside %s", (from, to, field, message) => {
    const sent = plan(
      "2",
      "90",
      [
        ["days.monday[0].from", from],
        ["days.monday[0].to", to],
      ],
      "20",
    );
    expect(sent.status).toBe("error");
    expect(sent.reply().error?.[field]).toEqual([message]);
  });

  it("refuses periods of one day that overlap, beside the later one", () => {
    const sent = plan("2", "90", [
      ["days.friday[0].from", "10:00"],
      ["days.friday[0].to", "12:00"],
      ["days.friday[1].from", "08:00"],
      ["days.friday[1].to", "10:30"],
    ]);
    expect(sent.reply().error?.["days.friday[0].from"]).toEqual(["doctor:availability.periodOverlap"]);
  });

  it("accepts the bounds the API accepts", () => {
    for (const [notice, horizon, minutes] of [
      ["0", "1", "5"],
      [String(MAX_NOTICE_HOURS), String(MAX_HORIZON_DAYS), "120"],
    ]) {
      const sent = plan(
        notice,
        horizon,
        [
          ["days.friday[0].from", "06:00"],
          ["days.friday[0].to", "22:00"],
        ],
        minutes,
      );
      expect(sent.status, `${notice} ${horizon}`).toBe("success");
      if (sent.status === "success") expect(workingPlan.safeParse(planBody(sent.value)).success).toBe(true);
    }
  });

  it("keeps the six hourly slots of the default plan as they are", () => {
    const values = planValues({
      week: { monday: [...SLOTS] },
      visitMinutes: 60,
      minimumNoticeHours: 2,
      bookingHorizonDays: 90,
    });
    const days = values.days.monday.flatMap((p, i) => [
      [`days.monday[${i}].from`, p.from],
      [`days.monday[${i}].to`, p.to],
    ]) as [string, string][];
    const sent = plan("2", "90", days);
    expect(sent.status).toBe("success");
    if (sent.status === "success") expect(planBody(sent.value).week.monday).toEqual([...SLOTS]);
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

  it("sends a period the API accepts, begun or not, of at most MAX_ABSENCE_DAYS", () => {
    for (const [from, to] of [
      [TODAY, TODAY],
      ["2026-11-20", TODAY],
      [TODAY, addDays(TODAY, MAX_ABSENCE_DAYS - 1)],
    ]) {
      const sent = absence(from, to, "Conference");
      expect(sent.status, `${from} ${to}`).toBe("success");
      if (sent.status === "success") expect(absenceBody.safeParse(sent.value).success).toBe(true);
    }
  });

  it.each([
    ["an end before the start", "2026-12-05", "2026-12-04", "to", "doctor:availability.toBeforeFrom"],
    ["a period over already", "2026-11-20", "2026-11-30", "to", "common:calendarDays.past"],
    ["a period too long", TODAY, addDays(TODAY, MAX_ABSENCE_DAYS), "to", "doctor:availability.tooLong"],
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
