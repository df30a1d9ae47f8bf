import { describe, expect, it } from 'vitest';
import { revealedScrollTop } from '../../../renderer/src/reveal';

describe('where the conversation scrolls to show a new approval card', () => {
  it('centres a card that fits, so its title and its buttons both show', () => {
    // A 100 px card at 1000 in a 300 px viewport: 100 px above it, 100 px below.
    expect(revealedScrollTop({ top: 1000, height: 100, viewport: 300 })).toBe(900);
  });

  it('puts the title of a card taller than the viewport just inside its top, not the buttons at its bottom', () => {
    expect(revealedScrollTop({ top: 1000, height: 400, viewport: 220 })).toBe(992);
  });

  it('never scrolls above the start', () => {
    expect(revealedScrollTop({ top: 20, height: 100, viewport: 600 })).toBe(0);
  });
});
