// The bell's page (docs/product.md, The bell) as the web app addresses it: shared by the summary, the
// bell's page and the layout, which reloads the count when the bell's page is opened. Nothing else
// here: the layout's chunk is on every signed-in page (docs/decisions/0003-first-load-javascript-budget.md).

/** The bell's page: its list comes with the summary, marked seen before the count is taken. */
export const NOTIFICATIONS_PAGE = "/notifications";
