import { useId } from 'react';
import { AutonomyLevel, type McpServerView } from '../../../../shared/contract';
import { useExtensions, useStores } from '../../stores';
import type { ExtensionsActions } from './extensions-store';

const STATE_WORDS: Record<McpServerView['state'], string> = {
  stopped: 'Stopped',
  starting: 'Starting…',
  running: 'Running',
  restarting: 'Restarting',
  failed: 'Failed',
  disabled: 'Turned off',
};

const ACTIONS: {
  label: string;
  act: (actions: ExtensionsActions, name: string) => Promise<void>;
  isBlockedWhileBusy: boolean;
}[] = [
  { label: 'Restart', act: (actions, name) => actions.restart(name), isBlockedWhileBusy: true },
  { label: 'Log', act: (actions, name) => actions.showLog(name), isBlockedWhileBusy: false },
  { label: 'Remove', act: (actions, name) => actions.remove(name), isBlockedWhileBusy: true },
];

/** One MCP server: its state, its tools and their risk, its secrets (masked), and what the person may do. */
export function ServerCard({ server }: { server: McpServerView }) {
  const { extensions: store } = useStores();
  const busy = useExtensions((state) => state.busy);
  const autonomyId = useId();
  const isBusy = busy === server.name;
  return (
    <li className="connection-card" data-testid={`mcp-server-${server.name}`}>
      <h4>
        {server.name} <span className="extensions-panel__state">{STATE_WORDS[server.state]}</span>
      </h4>
      <p className="settings-form__note">
        {server.config.transport === 'stdio'
          ? [server.config.command, ...server.config.args].join(' ')
          : server.config.url}
      </p>
      {server.error && <p role="alert">{server.error}</p>}
      {server.maskedSecrets.length > 0 && (
        <p data-testid={`mcp-secrets-${server.name}`}>
          Secrets in the vault:{' '}
          {server.maskedSecrets.map((secret) => `${secret.name} ${secret.masked}`).join(', ')}
        </p>
      )}
      <label htmlFor={autonomyId}>
        Its tools that act
        <select
          id={autonomyId}
          value={server.config.autonomy ?? 'confirm'}
          disabled={isBusy}
          onChange={(event) => {
            const level = AutonomyLevel.parse(event.target.value);
            void store.getState().setAutonomy(server, level === 'confirm' ? null : level);
          }}
        >
          <option value="confirm">ask me first (confirm)</option>
          <option value="review">ask me, with a review (review)</option>
          <option value="notify">run, then tell me (notify)</option>
          <option value="auto">run without asking (auto)</option>
        </select>
      </label>
      <details>
        <summary>{server.tools.length} tools</summary>
        <ul>
          {server.tools.map((tool) => (
            <li key={tool.name}>
              <code>{tool.name}</code> — {tool.hasSideEffects ? `acts (${tool.risk} risk)` : 'only reads'}
            </li>
          ))}
        </ul>
      </details>
      <div className="settings-form__actions">
        {ACTIONS.map(({ label, act, isBlockedWhileBusy }) => (
          <button
            key={label}
            type="button"
            className="button"
            disabled={isBlockedWhileBusy && isBusy}
            onClick={() => void act(store.getState(), server.name)}
          >
            {label}
          </button>
        ))}
      </div>
    </li>
  );
}
