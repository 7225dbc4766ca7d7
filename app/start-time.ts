// A start time a screen may send for a direct booking or a reschedule: HH:MM on the plans' 5-minute
// grid. Whether the doctor's plan offers it that day is the API's availability rule to say (409
// with its code); the forms only refuse what can be no start at all.
import { PLAN_GRID_MINUTES } from "../contract/constants.ts";
import { minutesOf } from "../contract/visit-plan.ts";

export const isStartTime = (time: string) => minutesOf(time) % PLAN_GRID_MINUTES === 0;
