import { useEffect, useId, type ChangeEvent } from 'react';
import type { AgentSummary } from '../../../../shared/contract';
import { listWords } from '../../../../shared/list-words';
import { phaseWords } from '../../../../shared/phase-words';
import { hasToolWords, summarizeToolCall } from '../../../../shared/tool-summaries';
import { FormError } from '../../components/FormParts';
import { toolLabel } from '../../format';
import { useAgents, useStores } from '../../stores';
import { useAgentLabel } from './agent-names';
import './agents.css';

/**
 * Tools the file lists that Deputy has none of: a typo (the agent quietly works without it) or an extension's tool
 * not connected yet. A warning, not an error: the agent loads, and gets the tool if one appears.
 */
function UnknownTools({ agent }: { agent: AgentSummary }) {
  const names = agent.unknownTools;
  const isOne = names.length === 1;
  return (
    <p className="agent-card__warning" data-testid="agent-unknown-tools">
      Deputy has no {isOne ? 'tool' : 'tools'} named {listWords(names.map((name) => `“${name}”`))}, so this
      agent works without {isOne ? 'it' : 'them'}. Check the spelling in <code>{agent.file}</code>; a tool of
      an extension is added once the extension is connected.
    </p>
  );
}

/** Settings → Agents: the built-in and personal agents, the files that did not load, on/off, import. */
export function AgentsPanel() {
  const { agents: store } = useStores();
  const agents = useAgents((state) => state.agents);
  const errors = useAgents((state) => state.errors);
  const folder = useAgents((state) => state.folder);
  // Only the desktop app can show a folder in the file manager; a browser on the headless host cannot.
  const shell = window.deputyShell;
  const loadError = useAgents((state) => state.loadError);
  const outcome = useAgents((state) => state.outcome);
  const error = useAgents((state) => state.error);
  const listId = useId();
  const errorsId = useId();
  const importId = useId();
  // What each tool lets the agent do, in the chat cards' words ("search your mail"); a tool that is an agent is
  // named as the person knows that agent ("ask Task helper"), and one nobody wrote words for by its name.
  const agentLabel = useAgentLabel();
  const toolName = (tool: string) => {
    const agent = agentLabel(tool);
    if (agent) return `ask ${agent}`;
    if (!hasToolWords(tool)) return toolLabel(tool);
    const words = summarizeToolCall(tool, {}, false);
    return words.charAt(0).toLowerCase() + words.slice(1);
  };

  // Read again on every open; while open, the store follows the host's word that the folder changed.
  useEffect(() => {
    void store.getState().load();
  }, [store]);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) await store.getState().importFile(file.name, await file.text());
    event.target.value = '';
  };

  return (
    <div className="agents-panel" data-testid="agents-panel">
      <section aria-labelledby={listId}>
        <h3 id={listId}>Agents</h3>
        <p className="settings-form__note">
          Each agent works on its own with only the tools it lists, under your rules. Deputy can hand it work,
          and you can start one from the chat with @ and its name.
        </p>
        {loadError && <FormError>{loadError}</FormError>}
        <ul className="agents-list">
          {agents?.map((agent) => (
            <li key={agent.name} className="agent-card" data-testid={`agent-${agent.name}`}>
              <div className="agent-card__header">
                <h4>{agent.displayName}</h4>
                <code className="agent-card__mention" title="Type this in the chat to start it">
                  @{agent.name}
                </code>
                <span className="agent-card__source">
                  {agent.source === 'builtin' ? 'Built in' : 'Yours'}
                </span>
                <label className="agent-card__toggle">
                  <input
                    type="checkbox"
                    checked={agent.enabled}
                    onChange={(event) => void store.getState().setEnabled(agent.name, event.target.checked)}
                  />
                  On<span className="visually-hidden"> ({agent.displayName})</span>
                </label>
              </div>
              <p>{agent.description}</p>
              <p className="agent-card__meta">
                It can: {agent.tools.map(toolName).join(', ') || 'only answer'}
                {agent.phases.length > 0 && (
                  <> · Steps: {agent.phases.map((phase) => phaseWords(phase.name)).join(' → ')}</>
                )}
              </p>
              {agent.unknownTools.length > 0 && <UnknownTools agent={agent} />}
              {agent.sameName && (
                <p className="agent-card__warning" data-testid="agent-same-name">
                  {agent.sameName}
                </p>
              )}
            </li>
          ))}
        </ul>
      </section>
      {errors.length > 0 && (
        <section aria-labelledby={errorsId}>
          <h3 id={errorsId}>Files that did not load</h3>
          <ul className="agents-errors" data-testid="agent-load-errors">
            {/* A file with several mistakes has a line for each, some on the same line of the file. */}
            {errors.map((item, index) => (
              <li key={`${item.file}:${item.line ?? ''}:${index.toString()}`}>
                <code>
                  {item.file}
                  {item.line !== null && `:${item.line}`}
                </code>{' '}
                {item.message}
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby={importId}>
        <h3 id={importId}>Your agents folder</h3>
        <p className="settings-form__note">
          Put definitions as YAML or JSON in the <code data-testid="agents-folder">{folder}</code> folder of
          Deputy&apos;s data folder; Deputy picks up changes as you save them.
        </p>
        {shell && (
          <p>
            <button type="button" className="secondary" onClick={() => void shell.openAgentsFolder()}>
              Open the agents folder
            </button>
          </p>
        )}
        <label>
          Import an agent (a Gemini CLI subagent .md, or a .yaml or .json definition)
          <input
            type="file"
            accept=".md,.yaml,.yml,.json"
            data-testid="agent-import"
            onChange={(event) => void onFile(event)}
          />
        </label>
      </section>
      {outcome && <p role="status">{outcome}</p>}
      {error && <FormError>{error}</FormError>}
    </div>
  );
}
