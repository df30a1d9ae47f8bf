import type { Locator } from 'playwright-core';

/**
 * The contrast ratio (WCAG's) of an element's top edge against what is on either side of it: its own fill, and
 * the first fill behind it. The lower of the two: an edge has to stand out from both to draw the element.
 */
export const edgeContrast = (element: Locator): Promise<number> =>
  element.evaluate((target) => {
    const channels = (colour: string) => (colour.match(/[\d.]+/g) ?? []).map(Number);
    const isFilled = (colour: string) => (channels(colour)[3] ?? 1) > 0;
    const luminance = (colour: string) => {
      const [r = 0, g = 0, b = 0] = channels(colour).map((value) => value / 255);
      const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const ratio = (a: string, b: string) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
    };
    const fillOf = (from: Element | null) => {
      for (let at = from; at; at = at.parentElement) {
        const colour = getComputedStyle(at).backgroundColor;
        if (isFilled(colour)) return colour;
      }
      return 'rgb(255, 255, 255)';
    };
    const edge = getComputedStyle(target).borderTopColor;
    return Math.min(ratio(edge, fillOf(target)), ratio(edge, fillOf(target.parentElement)));
  });
