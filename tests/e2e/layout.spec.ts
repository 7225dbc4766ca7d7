// Every page of every role, walked once per pair of language and JavaScript state (docs/layout.md):
// on each page load, the checks of both specs of the walk:
// - phone first: the page fits 320 and 360 px without sideways scroll, and every control is at
//   least 24x24 px at both widths (a resize reflows the loaded page as a narrower phone would);
// - accessibility: axe-core clean (WCAG 2.2 AA, best practices, names that contain the visible
//   label) at desktop size, and ids unique;
// and, per role, every top-bar item stays reachable at both widths (in the menu when it does not
// fit), with 24 px targets in the open menus. Menus close on navigation and on Escape; a toast never
// takes a tap. Keyboard focus (skip link, dialogs) is tests/e2e/a11y.spec.ts.
import type { Page } from "@playwright/test";
import { checkA11y, expect, test } from "./support.ts";
import {
  buildWorld,
  onScreen,
  overflowAt,
  pageAs,
  smallTargets,
  type Language,
  type Role,
  type World,
} from "./layout-support.ts";

const WIDTHS = [360, 320];
const HEIGHT = 740;
/** The size axe sees the page at: a desktop's, where the side menu and the top bar's items show. */
const DESKTOP = { width: 1280, height: 720 };

let world: World;
test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  world = await buildWorld(browser);
});

const words = {
  en: {
    health: "Health",
    insurance: "Insurance",
    portal: "Doctor portal",
    language: "Language",
    account: "Account menu",
    menu: "Open menu",
    profile: "Profile",
    settings: "Settings",
    logout: "Log out",
    notifications: /^Notifications/,
  },
  fr: {
    health: "Santé",
    insurance: "Assurance",
    portal: "Espace médecin",
    language: "Langue",
    account: "Menu du compte",
    menu: "Ouvrir le menu",
    profile: "Profil",
    settings: "Paramètres",
    logout: "Se déconnecter",
    notifications: /^Notifications/,
  },
};

/** The top-bar items of a role (docs/product.md, Screens and routes), as locators. */
function topBarItems(page: Page, role: Exclude<Role, "anonymous">, language: Language) {
  const w = words[language];
  const banner = page.getByRole("banner");
  const items: { name: string; locator: ReturnType<Page["locator"]>; inAccount?: boolean }[] = [
    { name: "home link", locator: banner.getByRole("link", { name: "HealthBook", exact: true }) },
    { name: "language", locator: banner.getByRole("combobox", { name: w.language }) },
    { name: "profile", locator: banner.getByRole("link", { name: w.profile, exact: true }), inAccount: true },
    { name: "settings", locator: banner.getByRole("link", { name: w.settings, exact: true }), inAccount: true },
    { name: "log out", locator: banner.getByRole("button", { name: w.logout, exact: true }), inAccount: true },
  ];
  // Neither the admin nor the front desk has a profile page or a bell.
  if (role === "admin" || role === "receptionist") items.splice(2, 1);
  if (role !== "admin" && role !== "receptionist")
    items.push({ name: "notifications", locator: banner.getByRole("link", { name: w.notifications }) });
  if (role === "patient") {
    items.push({ name: "health link", locator: banner.getByRole("link", { name: w.health, exact: true }) });
    items.push({ name: "insurance", locator: banner.getByRole("button", { name: w.insurance }) });
  }
  if (role === "doctor" || role === "pending")
    items.push({ name: "doctor portal", locator: banner.getByText(w.portal, { exact: true }) });
  return items;
}

/** Opens a <details> menu by its summary (works with and without JavaScript), unless already open. */
async function openMenu(page: Page, name: string) {
  const summary = page
    .getByRole("banner")
    .locator("summary", { has: page.locator(`[aria-label="${name}"]`) })
    .or(page.getByRole("banner").locator(`summary[aria-label="${name}"]`));
  if (!(await summary.isVisible())) return false;
  const open = await summary.evaluate((s) => (s.parentElement as HTMLDetailsElement).open);
  // A tap a user could make: a menu that cannot be tapped within a few seconds is unreachable.
  if (!open) await summary.click({ timeout: 3_000 }).catch(() => {});
  return summary.evaluate((s) => (s.parentElement as HTMLDetailsElement).open);
}

/** Every menu closed, as the page comes (instead of loading it again). */
async function closeMenus(page: Page) {
  await page.evaluate(() => {
    for (const menu of document.querySelectorAll("details[open]")) (menu as HTMLDetailsElement).open = false;
  });
}

async function unreachableTopBarItems(page: Page, role: Exclude<Role, "anonymous">, language: Language) {
  const w = words[language];
  const missing: string[] = [];
  for (const item of topBarItems(page, role, language)) {
    await closeMenus(page);
    if (await onScreen(page, item.locator)) continue;
    // Not on the bar: it must be in the account menu or the main menu, on screen once opened.
    const opened = await openMenu(page, item.inAccount ? w.account : w.menu);
    if (opened && (await onScreen(page, item.locator))) continue;
    await closeMenus(page);
    if (!item.inAccount && (await openMenu(page, w.account)) && (await onScreen(page, item.locator))) continue;
    missing.push(item.name);
  }
  await closeMenus(page);
  return missing;
}

/** Ids that occur more than once in the page. */
const duplicateIds = (page: Page) =>
  page.evaluate(() => {
    const seen = new Map<string, number>();
    for (const el of document.querySelectorAll("[id]")) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([id, n]) => `${id} (x${n})`);
  });

const roles = ["anonymous", "patient", "doctor", "pending", "admin", "receptionist"] as const;

for (const javaScriptEnabled of [false, true]) {
  for (const language of ["en", "fr"] as const) {
    test.describe(`every page (${language}, JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
      test.use({ javaScriptEnabled, locale: language === "fr" ? "fr-FR" : "en-US" });

      for (const role of roles) {
        test(`every ${role} page fits 320 and 360 px with 24 px targets, passes axe, has unique ids and keeps the top bar reachable`, async ({
          browser,
          baseURL,
        }) => {
          test.setTimeout(240_000);
          const page = await pageAs(browser, baseURL!, world, {
            role,
            language,
            javaScriptEnabled,
            phoneWidth: WIDTHS[0],
          });
          const problems: string[] = [];
          try {
            for (const visit of world.pages[role]) {
              await test.step(visit.what, async () => {
                // Loaded as a phone loads it; the same load is then measured narrower and at desktop size.
                if (visit.path) {
                  await page.setViewportSize({ width: WIDTHS[0]!, height: HEIGHT });
                  await page.goto(visit.path);
                }
                await visit.act?.(page);
                await page.setViewportSize({ width: WIDTHS[0]!, height: HEIGHT });
                const where = `${visit.what} (${new URL(page.url()).pathname}${new URL(page.url()).search})`;
                if (visit.shows)
                  await expect(page.locator(visit.shows).first(), `${where} shows ${visit.shows}`).toBeVisible();
                for (const width of WIDTHS) {
                  if (width !== WIDTHS[0]) await page.setViewportSize({ width, height: HEIGHT });
                  for (const p of await overflowAt(page, width)) problems.push(`${width} px ${where}: ${p}`);
                  for (const p of await smallTargets(page)) problems.push(`${width} px ${where}: ${p}`);
                }
                const duplicates = await duplicateIds(page);
                if (duplicates.length) problems.push(`${where}: duplicate ids ${duplicates.join(", ")}`);
                await page.setViewportSize(DESKTOP);
                try {
                  await checkA11y(page, { thorough: true });
                } catch (error) {
                  problems.push(`axe, ${where}: ${(error as Error).message.split("\n\n")[0]}`);
                }
              });
            }
            if (role !== "anonymous") {
              await test.step("the top bar and its menus", async () => {
                await page.setViewportSize({ width: WIDTHS[0]!, height: HEIGHT });
                await page.goto(world.pages[role][0]!.path!);
                for (const width of WIDTHS) {
                  await page.setViewportSize({ width, height: HEIGHT });
                  for (const item of await unreachableTopBarItems(page, role, language))
                    problems.push(`${width} px: the top-bar item '${item}' cannot be reached`);
                  // The menus' own items, measured open (closed, they are not drawn).
                  for (const menu of [words[language].menu, words[language].account]) {
                    if (await openMenu(page, menu))
                      for (const p of await smallTargets(page)) problems.push(`${width} px, ${menu} open: ${p}`);
                    await closeMenus(page);
                  }
                }
              });
            }
          } finally {
            await page.context().close();
          }
          const distinct = [...new Set(problems)];
          expect(distinct, distinct.join("\n")).toEqual([]);
        });
      }
    });
  }
}

test.describe("menus on a phone (JavaScript on)", () => {
  test.use({ javaScriptEnabled: true, viewport: { width: 360, height: HEIGHT } });

  test("the main and account menus close after navigating and on Escape", async ({ page }) => {
    await page.context().addCookies(world.states.patient.cookies);
    await page.goto("/health/doctors");
    const menu = page.getByRole("banner").locator("details", { has: page.locator('summary[aria-label="Open menu"]') });
    const account = page
      .getByRole("banner")
      .locator("details", { has: page.locator('summary[aria-label="Account menu"]') });

    await page.locator('summary[aria-label="Open menu"]').click();
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "My appointments" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText(/appointments/i);
    await expect(menu).not.toHaveAttribute("open");

    await page.locator('summary[aria-label="Account menu"]').click();
    await page.getByRole("banner").getByRole("link", { name: "Settings", exact: true }).click();
    await expect(page).toHaveURL(/\/settings$/);
    await expect(account).not.toHaveAttribute("open");

    await page.locator('summary[aria-label="Account menu"]').click();
    await expect(account).toHaveAttribute("open");
    await page.keyboard.press("Escape");
    await expect(account).not.toHaveAttribute("open");
    await expect(page.locator('summary[aria-label="Account menu"]')).toBeFocused();
  });

  test("a menu opened before the scripts have run stays open once they have", async ({ page }) => {
    // A slow phone draws the page long before its scripts run: a tap on the menu then must not be
    // undone when they do (the close-on-navigation effect ran at start, and closed it).
    await page.context().addCookies(world.states.patient.cookies);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/health/doctors", { waitUntil: "domcontentloaded" });
    const menu = page.getByRole("banner").locator("details", { has: page.locator('summary[aria-label="Open menu"]') });
    await page.locator('summary[aria-label="Open menu"]').click();
    await expect(menu).toHaveAttribute("open");
    release();
    // The language menu's Apply button is hidden once the page's scripts have run.
    await expect(page.getByRole("banner").getByRole("button", { name: "Apply" })).toHaveCount(0);
    await expect(menu).toHaveAttribute("open");
  });
});

for (const javaScriptEnabled of [false, true]) {
  test.describe(`toasts on a phone (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled, viewport: { width: 360, height: HEIGHT } });

    test("a toast never takes the taps meant for what is under it", async ({ page }) => {
      await page.context().addCookies(world.states.patient.cookies);
      await page.goto("/settings");
      for (const button of ["Turn lite mode on", "Turn lite mode off"]) {
        await page.getByRole("button", { name: button }).click();
        const toast = page.getByRole("status").filter({ hasText: /lite mode/i });
        await expect(toast).toBeVisible();
        // What a tap at the toast's centre reaches, asked of the browser while the toast shows.
        const taken = await toast.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return !!document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)?.closest('[role="status"]');
        });
        expect(taken, `the '${button}' toast takes the tap at its centre`).toBe(false);
      }
    });
  });
}
