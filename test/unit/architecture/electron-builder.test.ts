import { Ajv } from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

/**
 * As far as this machine can check the packaging without building an installer: electron-builder.yml
 * against the schema of the installed electron-builder, every file it names present, and the fuses and
 * protocols the shell relies on.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');
const config = load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown> & {
  electronFuses: Record<string, boolean>;
  extraResources: { from: string; to: string }[];
  protocols: { schemes: string[] }[];
  mac: { icon: string };
  win: { icon: string };
  linux: { icon: string };
};

describe('electron-builder.yml', () => {
  it('is valid for the installed electron-builder', () => {
    const schema = JSON.parse(
      readFileSync(join(ROOT, 'node_modules', 'app-builder-lib', 'scheme.json'), 'utf8'),
    );
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(schema);
    expect(validate(config) ? [] : validate.errors).toEqual([]);
  });

  it('names icons for every platform, and tray icons, that exist', () => {
    expect(config.mac.icon).toMatch(/\.icns$/);
    expect(config.win.icon).toMatch(/\.ico$/);
    for (const icon of [config.mac.icon, config.win.icon, config.linux.icon])
      expect(existsSync(join(ROOT, icon))).toBe(true);
    const tray = config.extraResources.find((resource) => resource.to === 'tray');
    expect(tray).toBeDefined();
    const trayIcons = ['trayTemplate', 'tray-light', 'tray-dark'].flatMap((name) => [
      `${name}.png`,
      `${name}@2x.png`,
    ]);
    for (const file of [...trayIcons, 'badge.png', 'badge@2x.png'])
      expect(existsSync(join(ROOT, tray?.from ?? '', file))).toBe(true);
  });

  it('turns off the fuses a Deputy with app:// pages does not need', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      grantFileProtocolExtraPrivileges: false,
      onlyLoadAppFromAsar: true,
    });
  });

  it('registers the deputy:// scheme the deep links use', () => {
    expect(config.protocols.flatMap((protocol) => protocol.schemes)).toEqual(['deputy']);
  });
});
