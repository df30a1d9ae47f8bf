import { describe, expect, it } from 'vitest';
import { saveExport } from '../../../renderer/src/features/audit/export-file';

/** A file picker whose file records each write and when, against the pages asked for. */
function fakePicker(log: string[], options: { cancel?: boolean } = {}) {
  return async () => {
    if (options.cancel) throw new DOMException('The user aborted a request.', 'AbortError');
    return {
      createWritable: async () => ({
        write: async (data: string) => void log.push(`write ${data.trim()}`),
        close: async () => void log.push('close'),
        abort: async () => void log.push('abort'),
      }),
    };
  };
}

async function* pages(log: string[], count: number, failAt?: number): AsyncGenerator<string> {
  for (let page = 1; page <= count; page += 1) {
    if (page === failAt) throw new Error('the host went away');
    log.push(`read ${page}`);
    yield `page ${page}\n`;
  }
}

describe('saving an export', () => {
  it('writes each page to the file before the next page is read, never the whole export at once', async () => {
    const log: string[] = [];
    const bytes = await saveExport(pages(log, 3), 'jsonl', fakePicker(log));
    expect(log).toEqual([
      'read 1',
      'write page 1',
      'read 2',
      'write page 2',
      'read 3',
      'write page 3',
      'close',
    ]);
    expect(bytes).toBe('page 1\n'.length * 3);
  });

  it('reads nothing when the person cancels the picker, and aborts the file when the host fails midway', async () => {
    const cancelled: string[] = [];
    expect(await saveExport(pages(cancelled, 3), 'csv', fakePicker(cancelled, { cancel: true }))).toBeNull();
    expect(cancelled).toEqual([]);

    const failed: string[] = [];
    await expect(saveExport(pages(failed, 3, 2), 'csv', fakePicker(failed))).rejects.toThrow('went away');
    expect(failed).toEqual(['read 1', 'write page 1', 'abort']);
  });
});
