import type { Page } from 'playwright-core';

/**
 * Whether the button named `label` in the box `selector` (a panel or dialog that scrolls) is wholly inside the
 * box's visible part, nothing covers it, and nothing scrolled shows below its row at the box's bottom edge:
 * 'in view', or what is wrong, so that a failed check says why.
 */
export const pinnedButtonView = (page: Page, selector: string, label: string) =>
  page.evaluate(
    ({ selector, label }) => {
      const box = document.querySelector(selector);
      const button = [...(box?.querySelectorAll('button') ?? [])].find((b) => b.textContent === label);
      if (!box || !button) return `no ${selector} or no ${label}`;
      const edge = box.getBoundingClientRect();
      const place = button.getBoundingClientRect();
      if (place.top < edge.top || place.bottom > edge.bottom)
        return `${label} at ${place.top}–${place.bottom}, box ${edge.top}–${edge.bottom}`;
      const onTop = document.elementFromPoint(place.left + place.width / 2, place.top + place.height / 2);
      if (onTop !== button && !button.contains(onTop)) return 'covered';
      const atEdge = document.elementFromPoint(place.left + place.width / 2, edge.bottom - 4);
      return atEdge === button.parentElement
        ? 'in view'
        : `${atEdge?.textContent ?? 'nothing'} below ${label}`;
    },
    { selector, label },
  );

/** Presses Tab `times` times and lists each control the focus reached that something else covers. */
export async function coveredByTab(page: Page, times: number): Promise<string[]> {
  const covered: string[] = [];
  for (let tab = 0; tab < times; tab += 1) {
    await page.keyboard.press('Tab');
    const seen = await page.evaluate(() => {
      const focused = document.activeElement;
      if (!(focused instanceof HTMLElement) || focused === document.body) return 'seen';
      const box = focused.getBoundingClientRect();
      const onTop = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return onTop === focused || focused.contains(onTop) ? 'seen' : `${focused.innerText} covered`;
    });
    if (seen !== 'seen') covered.push(seen);
  }
  return covered;
}
