import type { McpSecrets } from '../../../../shared/contract';

/** `NAME=value` lines (a header may be written `Name: value`), as the secrets of one kind. */
export function parseSecretLines(text: string, kind: 'env' | 'headers'): McpSecrets {
  const values: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const match = /^\s*([^=:\s]+)\s*[=:]\s*(.*?)\s*$/.exec(line);
    if (match?.[1] && match[2]) values[match[1]] = match[2];
  }
  return kind === 'env' ? { env: values, headers: {} } : { env: {}, headers: values };
}
