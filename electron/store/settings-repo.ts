import { redactedJson } from '../vault/redactor';
import type { Db } from './database';
import { parseStoredJson } from './json';

/** A small key/value table for user settings (never secrets: a token pasted into free text is redacted). */
export class SettingsRepo {
  private readonly selectAll;
  private readonly upsert;

  constructor(db: Db) {
    this.selectAll = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings');
    this.upsert = db.prepare(
      'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    );
  }

  all(): Record<string, unknown> {
    return Object.fromEntries(this.selectAll.all().map((row) => [row.key, parseStoredJson(row.value)]));
  }

  set(values: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(values)) {
      if (value !== undefined) this.upsert.run(key, redactedJson(value));
    }
  }
}
