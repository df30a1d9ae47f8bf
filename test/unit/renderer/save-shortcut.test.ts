import { describe, expect, it } from 'vitest';
import { isSaveShortcut, saveShortcut } from '../../../renderer/src/features/settings/save-shortcut';

const press = (
  key: string,
  held: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {},
) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...held,
});

describe('Save’s shortcut in Settings', () => {
  it('is Ctrl+S on a PC and Command+S on a Mac, with Caps Lock on too', () => {
    expect(isSaveShortcut(press('s', { ctrlKey: true }), 'pc')).toBe(true);
    expect(isSaveShortcut(press('S', { ctrlKey: true }), 'pc')).toBe(true);
    expect(isSaveShortcut(press('s', { metaKey: true }), 'mac')).toBe(true);
    expect(saveShortcut('pc')).toEqual({ label: 'Ctrl+S', aria: 'Control+S' });
    expect(saveShortcut('mac')).toEqual({ label: '⌘S', aria: 'Meta+S' });
  });

  it('is not S alone, the other platform’s key, or S with Shift or Alt (Save as…, a typed character)', () => {
    expect(isSaveShortcut(press('s'), 'pc')).toBe(false);
    expect(isSaveShortcut(press('s', { metaKey: true }), 'pc')).toBe(false);
    expect(isSaveShortcut(press('s', { ctrlKey: true }), 'mac')).toBe(false);
    expect(isSaveShortcut(press('S', { ctrlKey: true, shiftKey: true }), 'pc')).toBe(false);
    expect(isSaveShortcut(press('s', { ctrlKey: true, altKey: true }), 'pc')).toBe(false);
    expect(isSaveShortcut(press('d', { ctrlKey: true }), 'pc')).toBe(false);
  });
});
