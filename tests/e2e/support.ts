import type { Page } from "@playwright/test";

/** Waits until React has hydrated the page, so clicks go to its handlers rather than plain forms. */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const button = document.querySelector("main button, main form");
    return !!button && Object.keys(button).some((k) => k.startsWith("__reactProps"));
  });
}
