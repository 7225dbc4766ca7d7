// Waits the browser tests share with their server (tests/e2e/server.ts sets them on the app).

/** CODE_RESEND_SECONDS of the app under test: the production minute would idle a worker for a minute. */
export const CODE_RESEND_SECONDS = 5;
