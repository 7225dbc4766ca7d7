// zod for the form schemas that run in the browser too (one schema per form, shared by its route's
// action and conform in the browser: docs/forms.md). Import `z` from here, not from "zod", in those.
//
// zod compiles object parsers with `new Function` unless told not to, and its probe for that is a
// violation of this app's Content Security Policy (no 'unsafe-eval'), reported even though zod
// catches it. `jitless` must be set before the first object schema is built: this module runs
// before the body of any module that imports it. Only in the browser: on the server the same zod
// also parses the API's requests, where the compiled parsers are faster.
import { z } from "zod";

if (typeof document !== "undefined") z.config({ jitless: true });

export { z };
