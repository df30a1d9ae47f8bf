/** Small text helpers every feature shows values with. */

export const toolLabel = (tool: string): string => tool.replace(/_/g, ' ');

export function formatValue(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

const BYTE_UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** "512 bytes", "12.3 KB", "1.4 MB": sizes as a file manager shows them (1 KB = 1,024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${BYTE_UNITS[unit]}`;
}
