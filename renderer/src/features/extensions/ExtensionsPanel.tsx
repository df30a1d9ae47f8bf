import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { FormError } from '../../components/FormParts';
import { useExtensions, useSettings, useStores } from '../../stores';
import { AddServerForm } from './AddServerForm';
import { PANEL_ERROR_ID } from './CardProblem';
import { ServerCard } from './ServerCard';

const REFRESH_MS = 2_000;

/** Settings → Extensions: the person's MCP servers, their import from Claude Desktop or Gemini CLI, their logs. */
export function ExtensionsPanel() {
  const { extensions: store } = useStores();
  const servers = useExtensions((state) => state.servers);
  const loadError = useExtensions((state) => state.loadError);
  const outcome = useExtensions((state) => state.outcome);
  const error = useExtensions((state) => state.error);
  const log = useExtensions((state) => state.log);
  // Supervised asks before every action, so a server's "auto" has no effect until the trust level changes.
  const isSupervised = useSettings((state) => state.settings?.trustLevel === 'supervised');
  const [path, setPath] = useState('');
  // The log opens below the add and import forms, out of sight of the card's Log button in a short window: it
  // takes the keyboard (which brings it into view), and Hide the log gives the keyboard back to that button.
  const logRef = useRef<HTMLPreElement>(null);
  const logName = log?.name ?? null;
  useEffect(() => {
    if (logName !== null) logRef.current?.focus();
  }, [logName]);
  const hideLog = (name: string) => {
    store.getState().hideLog();
    document.querySelector<HTMLElement>(`[data-testid="mcp-server-${name}"] [data-action="Log"]`)?.focus();
  };
  const importId = useId();
  const serversId = useId();

  // Servers start, die and restart behind this window: read them when it opens, and again while it is open, so a
  // server that stops is not shown running until Settings is closed and opened again.
  useEffect(() => {
    void store.getState().load();
    const timer = setInterval(() => void store.getState().load(), REFRESH_MS);
    return () => clearInterval(timer);
  }, [store]);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) await store.getState().importConfig({ text: await file.text() });
    event.target.value = '';
  };
  const onPath = (event: FormEvent) => {
    event.preventDefault();
    if (path.trim()) void store.getState().importConfig({ path: path.trim() });
  };

  return (
    <div className="extensions-panel" data-testid="extensions-panel">
      <section aria-labelledby={serversId}>
        <h3 id={serversId}>MCP servers</h3>
        <p className="settings-form__note">
          Their tools work under your rules: one that acts asks you first unless you choose otherwise here.
        </p>
        {isSupervised && (
          <p className="settings-form__note" data-testid="mcp-supervised-note">
            You are on Supervised (in Permissions): every action waits for your approval, whatever you choose
            here.
          </p>
        )}
        {loadError && <FormError>{loadError}</FormError>}
        {servers?.length === 0 && <p>No MCP servers yet.</p>}
        <ul className="connections extensions-panel__servers">
          {servers?.map((server) => (
            <ServerCard key={server.name} server={server} />
          ))}
        </ul>
        <AddServerForm />
      </section>
      <section aria-labelledby={importId}>
        <h3 id={importId}>Import from Claude Desktop or Gemini CLI</h3>
        <label className="extensions-panel__field">
          A config file (claude_desktop_config.json, settings.json)
          <input type="file" accept=".json,application/json" onChange={(event) => void onFile(event)} />
        </label>
        <form className="extensions-panel__path" onSubmit={onPath}>
          <label className="extensions-panel__field">
            …or its path on this computer
            <input value={path} onChange={(event) => setPath(event.target.value)} spellCheck={false} />
          </label>
          <button type="submit" className="button">
            Import
          </button>
        </form>
      </section>
      {outcome && <p role="status">{outcome}</p>}
      {error && (
        <FormError id={PANEL_ERROR_ID} isFocusable>
          {error}
        </FormError>
      )}
      {log && (
        <section aria-label={`Log of ${log.name}`}>
          <h3>Log of {log.name}</h3>
          <pre className="extensions-panel__log" data-testid="mcp-log" tabIndex={0} ref={logRef}>
            {log.lines.join('\n') || '(nothing yet)'}
          </pre>
          <button type="button" className="button" onClick={() => hideLog(log.name)}>
            Hide the log
          </button>
        </section>
      )}
    </div>
  );
}
