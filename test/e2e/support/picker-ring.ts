import type { Page } from 'playwright-core';

/**
 * Presses Tab until the keyboard is on the focused date or time field's calendar or clock button (the field then
 * has the focus within it, not on itself); answers whether it got there within `presses`.
 */
export async function tabToPickerButton(page: Page, presses = 8): Promise<boolean> {
  const isOnButton = () =>
    page.evaluate(() => {
      const active = document.activeElement;
      return active instanceof HTMLInputElement && active.matches(':focus-within:not(:focus)');
    });
  for (let press = 0; press < presses; press += 1) {
    await page.keyboard.press('Tab');
    if (await isOnButton()) return true;
  }
  return false;
}

/**
 * How many pixels of the app's focus colour (--focus) the screen shows on and around the focused field: its ring,
 * as drawn, since the button's ring is on a pseudo-element that computed styles do not report. Decoded in a blank
 * page of the same browser, out of reach of the app's content security policy.
 */
export async function focusColourPixels(page: Page): Promise<number> {
  const { clip, colour } = await page.evaluate(() => {
    const box = document.activeElement?.getBoundingClientRect() ?? new DOMRect();
    const probe = document.createElement('span');
    probe.style.color = 'var(--focus)';
    document.body.append(probe);
    const colour = (getComputedStyle(probe).color.match(/\d+/g) ?? []).slice(0, 3).map(Number);
    probe.remove();
    return { clip: { x: box.x - 6, y: box.y - 6, width: box.width + 12, height: box.height + 12 }, colour };
  });
  const png = (await page.screenshot({ clip })).toString('base64');
  const browser = page.context().browser();
  if (!browser) throw new Error('focusColourPixels(): the page has no browser to decode its screenshot in');
  const scratch = await browser.newPage();
  try {
    return await scratch.evaluate(
      async ({ png, colour }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${png}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d');
        if (!context) return 0;
        context.drawImage(image, 0, 0);
        const pixels = context.getImageData(0, 0, image.width, image.height).data;
        const [red = 0, green = 0, blue = 0] = colour;
        let count = 0;
        for (let at = 0; at < pixels.length; at += 4) {
          const distance =
            Math.abs((pixels[at] ?? 0) - red) +
            Math.abs((pixels[at + 1] ?? 0) - green) +
            Math.abs((pixels[at + 2] ?? 0) - blue);
          if (distance < 24) count += 1;
        }
        return count;
      },
      { png, colour },
    );
  } finally {
    await scratch.close();
  }
}
