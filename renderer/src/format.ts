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
