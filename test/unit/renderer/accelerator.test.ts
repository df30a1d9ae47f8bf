import { describe, expect, it } from 'vitest';
import { acceleratorLabel, acceleratorOf } from '../../../renderer/src/features/desktop/accelerator';

const press = (code: string, mods: Partial<Record<'alt' | 'ctrl' | 'meta' | 'shift', boolean>> = {}) => ({
  code,
  key: '',
  altKey: mods.alt ?? false,
  ctrlKey: mods.ctrl ?? false,
  metaKey: mods.meta ?? false,
  shiftKey: mods.shift ?? false,
});

describe('the shortcut recorder’s keys', () => {
  it('makes an Electron accelerator from the key’s place, with Command on a Mac and Ctrl elsewhere', () => {
    expect(acceleratorOf(press('Space', { alt: true }), 'mac')).toBe('Alt+Space');
    expect(acceleratorOf(press('KeyK', { meta: true, shift: true }), 'mac')).toBe('CommandOrControl+Shift+K');
    expect(acceleratorOf(press('KeyK', { ctrl: true, shift: true }), 'pc')).toBe('CommandOrControl+Shift+K');
    expect(acceleratorOf(press('KeyK', { ctrl: true }), 'mac')).toBe('Control+K');
    expect(acceleratorOf(press('Digit1', { alt: true }), 'pc')).toBe('Alt+1');
    expect(acceleratorOf(press('F8'), 'pc')).toBe('F8');
    expect(acceleratorOf(press('ArrowUp', { alt: true }), 'pc')).toBe('Alt+Up');
  });

  it('waits while only modifiers are held', () => {
    expect(acceleratorOf(press('AltLeft', { alt: true }), 'pc')).toBeNull();
    expect(acceleratorOf(press('ShiftRight', { shift: true }), 'mac')).toBeNull();
  });

  it('names keys as the person’s keyboard does', () => {
    expect(acceleratorLabel('Alt+Space', 'mac')).toBe('Option+Space');
    expect(acceleratorLabel('CommandOrControl+Shift+K', 'mac')).toBe('Command+Shift+K');
    expect(acceleratorLabel('CommandOrControl+Shift+K', 'pc')).toBe('Ctrl+Shift+K');
  });
});
