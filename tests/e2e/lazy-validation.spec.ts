// Forms whose validation code loads after the page is interactive (app/components/lazy-validation.ts):
// until it has arrived, typing and leaving fields sends nothing to the server (conform would
// otherwise validate each blurred field by posting the form), and Register submits the form once.
import { expect, test } from "./support.ts";
import { PASSWORD } from "./doctor-helpers.ts";
import { uniqueEmail } from "./support.ts";

test.describe("a form whose validation has not arrived (JavaScript on)", () => {
  test("typing posts nothing, and one click registers", async ({ page }) => {
    // The schemas never arrive while the test runs; they are asked for once the page has hydrated.
    let asked = false;
    await page.route(/\/assets\/schemas-[^/]+\.js$/, () => {
      asked = true;
    });
    const posts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") posts.push(request.url());
    });
    await page.goto("/register");
    await expect.poll(() => asked).toBe(true);
    await page.getByLabel("Username").fill("Lazy Person");
    await page.getByLabel("Email").fill(uniqueEmail("lazy"));
    await page.getByLabel("Phone").fill("670000000");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm password").fill(PASSWORD);
    await page.getByLabel("Username").focus();
    expect(posts).toEqual([]);
    await page.getByRole("button", { name: "Register as patient" }).click();
    await page.waitForURL(/\/verification/);
    expect(posts).toHaveLength(1);
  });
});
