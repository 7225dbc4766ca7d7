// The consultation types, the one list both sides read: the API validates records against it
// (data.ts) and the web app's consultation form offers it (app/routes/doctor/consultation-schema.ts).
// Two hand-kept copies had drifted (the form lacked 'in-person'). No server code here: the web
// app's browser bundle imports this file.
export const CONSULTATION_TYPES = ["consultation", "follow-up", "check-up", "emergency", "online", "in-person"] as const;
