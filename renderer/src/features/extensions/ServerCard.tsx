import { useId } from 'react';
import { AutonomyLevel, MCP_START_ATTEMPTS, type McpServerView } from '../../../../shared/contract';
import { FormError, whileBusy } from '../../components/FormParts';
import { CardProblem, useCardProblem, type CardProblems } from './CardProblem';
import { useExtensions, useStores } from '../../stores';
import { counted, type ExtensionsActions } from './extensions-store';
import { AutonomyOptions } from './AutonomyOptions';
import { RemoveServer } from './RemoveServer';
import { ServerTarget } from './ServerTarget';
import { secretAction, ServerSecrets } from './ServerSecrets';

const STATE_WORDS: Record<McpServerView['state'], string> = {
  stopped: 'Stopped',
  starting: 'Starting…',
  running: 'Running',
  restarting: 'Restarting',
  failed: 'Failed',
  disabled: 'Turned off',
};

/**
 * The card's edge says at a glance which servers work (green), are on their way (blue) or are failing (red); its state
 * is a badge of the same colour (as on a Connections card), so Failed reads as an error, not only by the edge.
 */
const CARD_STATE: Record<McpServerView['state'], string> = {
  stopped: '',
  starting: 'connection-card--connecting',
  running: 'connection-card--connected',
  restarting: 'connection-card--error',
  failed: 'connection-card--error',
  disabled: '',
};

const ACTIONS: {
  /** Its key and `data-action`: the same button whatever it says, so the keyboard stays on it as its words change. */
  action: string;
  label: (server: McpServerView) => string;
  /** Null once done, else why not (see useCardProblem). */
  act: (actions: ExtensionsActions, name: string) => Promise<string | null>;
  isBlockedWhileBusy: boolean;
  /** Offered only while the server is turned on (a turned-off server has nothing to restart). */
  isOnlyWhenOn: boolean;
}[] = [
  {
    action: 'Restart',
    // Left failed, the server is not tried again until the person says so: the same Restart, in their words.
    label: (server) => (server.state === 'failed' ? 'Try again' : 'Restart'),
    act: (actions, name) => actions.restart(name),
    isBlockedWhileBusy: true,
    isOnlyWhenOn: true,
  },
  {
    action: 'Log',
    label: () => 'Log',
    act: (actions, name) => actions.showLog(name),
    isBlockedWhileBusy: false,
    isOnlyWhenOn: false,
  },
];

/** One MCP server: its state, its tools and their risk, its secrets (masked), and what the person may do. */
export function ServerCard({ server }: { server: McpServerView }) {
  const { extensions: store } = useStores();
  const busy = useExtensions((state) => state.busy);
  const autonomyId = useId();
  const isBusy = busy === server.name;
  const problem = useCardProblem(server);
  return (
    <li className={`connection-card ${CARD_STATE[server.state]}`} data-testid={`mcp-server-${server.name}`}>
      <h4 className="extensions-panel__name">
        {server.name}{' '}
        <span className="extensions-panel__state connection-card__state">{STATE_WORDS[server.state]}</span>
      </h4>
      <ServerTarget server={server} isBusy={isBusy} />
      <ServerSecrets server={server} isBusy={isBusy} />
      {server.error && <FormError>{server.error}</FormError>}
      {server.state === 'failed' && (
        <p className="settings-form__note" data-testid={`mcp-failed-${server.name}`}>
          {failedWords(server)}
        </p>
      )}
      <label htmlFor={autonomyId}>
        Its tools that act{' '}
        <select
          id={autonomyId}
          value={server.config.autonomy ?? 'confirm'}
          disabled={isBusy}
          aria-describedby={problem.describedBy('autonomy')}
          onChange={(event) => {
            const level = AutonomyLevel.parse(event.target.value);
            const change = store.getState().setAutonomy(server, level === 'confirm' ? null : level);
            void problem.attempt('autonomy', event.currentTarget, change);
          }}
        >
          <AutonomyOptions />
        </select>
      </label>
      <CardProblem problem={problem.wordsFor('autonomy')} />
      <details>
        <summary>{counted(server.tools.length, 'tool')}</summary>
        <ul>
          {server.tools.map((tool) => (
            <ToolRow key={tool.name} server={server} tool={tool} isBusy={isBusy} problem={problem} />
          ))}
        </ul>
      </details>
      {server.leftOut && (
        // Why some of what the server lists is not offered, as its log says it (at most a line per tool).
        <details data-testid={`mcp-left-out-${server.name}`}>
          <summary>Some of its tools are not offered</summary>
          <ul>
            {server.leftOut.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </details>
      )}
      <div className="settings-form__actions extensions-panel__actions">
        <button
          type="button"
          className="button"
          aria-describedby={problem.describedBy('enabled')}
          {...whileBusy(isBusy, (event) => {
            const change = store.getState().setEnabled(server, !server.config.enabled);
            void problem.attempt('enabled', event.currentTarget, change);
          })}
        >
          {server.config.enabled ? 'Turn off' : 'Turn on'}
        </button>
        {ACTIONS.filter(({ isOnlyWhenOn }) => server.config.enabled || !isOnlyWhenOn).map(
          ({ action, label, act, isBlockedWhileBusy }) => (
            <button
              key={action}
              data-action={action}
              type="button"
              className="button"
              aria-describedby={problem.describedBy(action)}
              {...whileBusy(isBlockedWhileBusy && isBusy, (event) => {
                void problem.attempt(action, event.currentTarget, act(store.getState(), server.name));
              })}
            >
              {label(server)}
            </button>
          ),
        )}
        <RemoveServer server={server} isBusy={isBusy} problem={problem} />
        <CardProblem problem={problem.wordsFor('enabled', ...ACTIONS.map(({ action }) => action))} />
      </div>
    </li>
  );
}

/**
 * What a person can do about a server left failed. One whose address refused Deputy (HTTP 401 or 403) wants another
 * secret: the words point at the button that gives it, not at Remove and add it again.
 */
function failedWords(server: McpServerView): string {
  const stopped = `Deputy tried to start it ${MCP_START_ATTEMPTS} times and has stopped trying.`;
  if (server.isRefused)
    return server.maskedSecrets.length === 0
      ? `${stopped} The server refused Deputy, which sends it no secret: press Add secret to give it one, and Deputy starts it again.`
      : `${stopped} The server refused the secret Deputy sent: press ${secretAction(server)} to give the right one, and Deputy starts it again.`;
  const target = server.config.transport === 'stdio' ? 'command' : 'address';
  return `${stopped} Edit its ${target}, or fix what it needs and press Try again.`;
}

/** One tool: whether it only reads, and for one that acts, the person's setting for it alone. */
function ToolRow({
  server,
  tool,
  isBusy,
  problem,
}: {
  server: McpServerView;
  tool: McpServerView['tools'][number];
  isBusy: boolean;
  problem: CardProblems;
}) {
  const { extensions: store } = useStores();
  const control = `tool:${tool.serverTool}`;
  return (
    <li>
      <div className="extensions-panel__tool">
        <span>
          <code>{tool.name}</code> — {tool.hasSideEffects ? `acts (${tool.risk} risk)` : 'only reads'}
        </span>
        {tool.hasSideEffects && (
          <select
            aria-label={`Autonomy for ${tool.name}`}
            value={tool.autonomy ?? 'server'}
            disabled={isBusy}
            aria-describedby={problem.describedBy(control)}
            onChange={(event) => {
              const value = event.target.value;
              const level = value === 'server' ? null : AutonomyLevel.parse(value);
              const change = store.getState().setToolAutonomy(server, tool.serverTool, level);
              void problem.attempt(control, event.currentTarget, change);
            }}
          >
            <option value="server">as the server</option>
            <AutonomyOptions />
          </select>
        )}
        <CardProblem problem={problem.wordsFor(control)} />
      </div>
    </li>
  );
}
