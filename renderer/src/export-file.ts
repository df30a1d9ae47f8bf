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

/** What an export is saved as: the name the picker suggests, and the type it offers (its words, MIME and ending). */
export interface ExportFileType {
  name: string;
  description: string;
  mime: string;
  extension: string;
}

/** The formats Deputy exports in, with the words and MIME type a file picker offers for each. */
const FORMATS = {
  jsonl: { description: 'JSON lines', mime: 'application/x-ndjson' },
  csv: { description: 'CSV', mime: 'text/csv' },
  md: { description: 'Markdown', mime: 'text/markdown' },
} as const;
export type ExportFormat = keyof typeof FORMATS;

/** The file of an export in `format`, named `<baseName>.<format>`: "deputy-audit.csv". */
export const exportFileType = (baseName: string, format: ExportFormat): ExportFileType => ({
  name: `${baseName}.${format}`,
  ...FORMATS[format],
  extension: `.${format}`,
});

const isAbort = (error: unknown): boolean => error instanceof DOMException && error.name === 'AbortError';

const encoder = new TextEncoder();

/**
 * Saves an export as the host streams it: the person picks the file first, then each page is written to it
 * as it arrives, so a million entries never sit in the renderer's memory. Where the browser has no file
 * picker (not Chromium), the pages are gathered and downloaded: the one case that holds the whole file.
 * Answers how many bytes were written (UTF-8, as on disk), or null when the person cancelled. A failure midway
 * discards the file: nothing is left that looks whole.
 */
export async function saveExport(
  pages: AsyncIterable<string>,
  type: ExportFileType,
  picker: SaveFilePicker | undefined = (window as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker,
): Promise<number | null> {
  if (!picker) return downloadWhole(pages, type);
  let file: WritableFile;
  try {
    const handle = await picker({
      suggestedName: type.name,
      types: [{ description: type.description, accept: { [type.mime]: [type.extension] } }],
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
      bytes += encoder.encode(page).byteLength;
    }
  } catch (error) {
    await file.abort().catch(() => {});
    throw error;
  }
  await file.close();
  return bytes;
}

async function downloadWhole(pages: AsyncIterable<string>, type: ExportFileType): Promise<number> {
  const parts: string[] = [];
  for await (const page of pages) parts.push(page);
  const blob = new Blob(parts, { type: type.mime });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = type.name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
  return blob.size;
}
