import { describe, expect, it } from 'vitest';
import { exportFileType, saveExport } from '../../../renderer/src/export-file';

/** A file picker whose file records each write and when, against the pages asked for. */
function fakePicker(log: string[], options: { cancel?: boolean } = {}) {
  return async (offered: { suggestedName: string; types: unknown[] }) => {
    log.push(`offered ${JSON.stringify(offered)}`);
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
    const bytes = await saveExport(pages(log, 3), exportFileType('deputy-audit', 'jsonl'), fakePicker(log));
    expect(log).toEqual([
      'offered {"suggestedName":"deputy-audit.jsonl","types":[{"description":"JSON lines","accept":{"application/x-ndjson":[".jsonl"]}}]}',
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
    expect(
      await saveExport(
        pages(cancelled, 3),
        exportFileType('deputy-audit', 'csv'),
        fakePicker(cancelled, { cancel: true }),
      ),
    ).toBeNull();
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]).toMatch(/^offered /);

    const failed: string[] = [];
    await expect(
      saveExport(pages(failed, 3, 2), exportFileType('deputy-audit', 'csv'), fakePicker(failed)),
    ).rejects.toThrow('went away');
    expect(failed.slice(1)).toEqual(['read 1', 'write page 1', 'abort']);
  });

  it('offers the file by its name and type, and counts what it wrote in bytes, as the disk does', async () => {
    const log: string[] = [];
    async function* words() {
      yield '## Café — 12 March\n';
      yield '**You:**\n\nÇa va ?\n';
    }
    const bytes = await saveExport(words(), exportFileType('deputy-conversations', 'md'), fakePicker(log));
    expect(log[0]).toBe(
      'offered {"suggestedName":"deputy-conversations.md","types":[{"description":"Markdown","accept":{"text/markdown":[".md"]}}]}',
    );
    expect(bytes).toBe(new Blob(['## Café — 12 March\n', '**You:**\n\nÇa va ?\n']).size);
    expect(bytes).toBeGreaterThan('## Café — 12 March\n**You:**\n\nÇa va ?\n'.length);
  });
});
