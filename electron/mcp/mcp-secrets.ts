import { McpSecrets } from '../../shared/contract';
import { rememberSecret } from '../vault/redactor';
import type { Vault } from '../vault/vault';

const EMPTY: McpSecrets = { env: {}, headers: {} };

/** An MCP server's secret environment values and headers, kept in the vault and nowhere else. */
export class McpSecretStore {
  constructor(private readonly vault: Vault) {}

  get(server: string): McpSecrets {
    const secrets = this.vault.getJson(`mcp.${server}`, (value) => {
      const parsed = McpSecrets.safeParse(value);
      return parsed.success ? parsed.data : null;
    });
    // Every value is a secret whatever its name ("GITHUB_PAT"), so each is handed to the redactor.
    this.remember(secrets ?? EMPTY);
    return secrets ?? EMPTY;
  }

  /** Hands the values to the redactor before they are stored, so a check of what it will take out sees them. */
  remember(secrets: McpSecrets): void {
    for (const value of valuesOf(secrets)) rememberSecret(value);
  }

  /** Adds or replaces the given values; names not given keep theirs. */
  merge(server: string, added: McpSecrets): McpSecrets {
    const current = this.get(server);
    const next = { env: { ...current.env, ...added.env }, headers: { ...current.headers, ...added.headers } };
    this.remember(next);
    if (valuesOf(next).length > 0) this.vault.setJson(`mcp.${server}`, next);
    return next;
  }

  /** Keeps only the names still configured as secrets. */
  keepOnly(server: string, env: readonly string[], headers: readonly string[]): void {
    const current = this.get(server);
    const pick = (values: Record<string, string>, names: readonly string[]): Record<string, string> =>
      Object.fromEntries(Object.entries(values).filter(([name]) => names.includes(name)));
    const next = { env: pick(current.env, env), headers: pick(current.headers, headers) };
    if (valuesOf(next).length === 0) this.vault.delete(`mcp.${server}`);
    else this.vault.setJson(`mcp.${server}`, next);
  }

  delete(server: string): void {
    this.vault.delete(`mcp.${server}`);
  }
}

function valuesOf(secrets: McpSecrets): string[] {
  return [...Object.values(secrets.env), ...Object.values(secrets.headers)];
}
