/** The part of the File System Access API an export uses (Chromium, and so Electron, has it; lib.dom may not). */
interface WritableFile {
  write(data: string): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}
type SaveFilePicker = (options: {
  suggestedName: string;
  types: { description: string; accept: Record<string, string[]> }[];
}) => Promise<{ createWritable(): Promise<WritableFile> }>;

export type ExportFormat = 'jsonl' | 'csv';

const TYPES: Record<ExportFormat, { description: string; mime: string }> = {
  jsonl: { description: 'JSON lines', mime: 'application/x-ndjson' },
  csv: { description: 'CSV', mime: 'text/csv' },
};

const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

/**
 * Saves an export as the host streams it: the person picks the file first, then each page is written to it
 * as it arrives, so a million entries never sit in the renderer's memory. Where the browser has no file
 * picker (not Chromium), the pages are gathered and downloaded: the one case that holds the whole file.
 * Answers how many bytes were written, or null when the person cancelled.
 */
export async function saveExport(
  pages: AsyncIterable<string>,
  format: ExportFormat,
  picker: SaveFilePicker | undefined = (window as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker,
): Promise<number | null> {
  const type = TYPES[format];
  const name = `deputy-audit.${format}`;
  if (!picker) return downloadWhole(pages, name, type.mime);
  let file: WritableFile;
  try {
    const handle = await picker({
      suggestedName: name,
      types: [{ description: type.description, accept: { [type.mime]: [`.${format}`] } }],
    });
    file = await handle.createWritable();
  } catch (error) {
    if (isAbort(error)) return null;
    throw error;
  }
  let bytes = 0;
  try {
    for await (const page of pages) {
      await file.write(page);
      bytes += page.length;
    }
  } catch (error) {
    await file.abort().catch(() => {});
    throw error;
  }
  await file.close();
  return bytes;
}

async function downloadWhole(pages: AsyncIterable<string>, name: string, mime: string): Promise<number> {
  const parts: string[] = [];
  for await (const page of pages) parts.push(page);
  const blob = new Blob(parts, { type: mime });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
  return blob.size;
}
