// A patient moves to another country and presses Save straight away, without 'Update cities':
// the profile is never saved with a city of the old country; the form comes back with the new
// country's cities, asking for one, and then saves. The same with JavaScript, where the cities load
// in place and an empty city is asked for the same way, also when the country was chosen before the
// page's scripts had run (a slow phone): the page takes that choice over instead of putting back the
// old country.
import { api, signIn } from "./doctor-helpers.ts";
import { expect, test } from "./fixtures.ts";
import { holdModule } from "./support.ts";

async function placeId(path: string, name: string): Promise<number> {
  const list = await api<{ id: number; name: string }[]>("GET", path);
  const found = list.body.find((p) => p.name === name);
  if (!found) throw new Error(`${name} is missing from ${path}`);
  return found.id;
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(`changing the profile's country (JavaScript ${javaScriptEnabled ? "on" : "off"})`, () => {
    test.use({ javaScriptEnabled });

    test("Save with a new country asks for its city, then saves both", async ({ page, patient }) => {
      const cameroon = await placeId("/location/country", "Cameroon");
      const douala = await placeId(`/location/city/${cameroon}`, "Douala");
      const saved = await api("PUT", "/patient/me", {
        token: patient.token,
        body: { username: patient.username, countryId: cameroon, cityId: douala },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      await signIn(page, patient.email, "patient");
      await page.goto("/patient/profile?edit=1");
      await expect(page.getByLabel("City")).toHaveValue(String(douala));

      await test.step("a new country and Save at once: the form asks for a city of that country", async () => {
        await page.getByLabel("Profession").fill("Nurse");
        await page.getByLabel("Country").selectOption({ label: "Gabon" });
        await page.getByRole("button", { name: "Save" }).click();
        await expect(page.getByRole("alert").filter({ hasText: "The country changed" })).toHaveText(
          "The country changed: choose a city of the new country, then save again.",
        );
        await expect(page.getByText("Choose a city of this country.")).toBeVisible();
        await expect(page.getByLabel("Country")).toHaveValue(await placeId("/location/country", "Gabon").then(String));
        await expect(page.getByLabel("Profession")).toHaveValue("Nurse");
        const me = await api("GET", "/patient/me", { token: patient.token });
        expect(me.body.countryId).toBe(cameroon);
      });

      await test.step("a city of the new country saves", async () => {
        await page.getByLabel("City").selectOption({ label: "Libreville" });
        await page.getByRole("button", { name: "Save" }).click();
        await expect(page.getByText("Profile updated successfully")).toBeVisible();
        const details = page.locator("dl");
        await expect(details.getByText("Gabon")).toBeVisible();
        await expect(details.getByText("Libreville")).toBeVisible();
        await expect(details.getByText("Nurse")).toBeVisible();
      });
    });
  });
}

test.describe("changing the profile's country before the page is interactive (JavaScript on)", () => {
  test("the country chosen before the scripts ran is kept: its cities load and a city is asked for", async ({
    page,
    patient,
  }) => {
    const cameroon = await placeId("/location/country", "Cameroon");
    const douala = await placeId(`/location/city/${cameroon}`, "Douala");
    const gabon = await placeId("/location/country", "Gabon");
    const saved = await api("PUT", "/patient/me", {
      token: patient.token,
      body: { username: patient.username, countryId: cameroon, cityId: douala },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    await signIn(page, patient.email, "patient");
    // The page's scripts wait (a slow network) while the patient chooses the new country.
    const scripts = await holdModule(page, /\/assets\/[^/]+\.js$/);
    await page.goto("/patient/profile?edit=1", { waitUntil: "commit" });
    await page.getByLabel("Country").selectOption({ label: "Gabon" });
    expect(scripts.asked).toBe(true);
    scripts.release();
    // Interactive: the no-JavaScript 'Update cities' button is gone, and the choice stays.
    await expect(page.getByRole("button", { name: "Update cities" })).toHaveCount(0);
    await expect(page.getByLabel("Country")).toHaveValue(String(gabon));
    await expect(page.getByLabel("City").getByRole("option", { name: "Libreville" })).toHaveCount(1);

    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Choose a city of this country.")).toBeVisible();
    expect((await api("GET", "/patient/me", { token: patient.token })).body.countryId).toBe(cameroon);
    await page.getByLabel("City").selectOption({ label: "Libreville" });
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Profile updated successfully")).toBeVisible();
    await expect(page.locator("dl").getByText("Libreville")).toBeVisible();
  });
});
