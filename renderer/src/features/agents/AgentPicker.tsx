import { useEffect, useId, useRef, useState } from 'react';
import { toClientError } from '../../api/client-error';
import { useAgents, useChat, useStores } from '../../stores';
import { useTabWrap } from '../../use-modal-dialog';
import { AgentForm } from './AgentForm';
import './agents.css';

/**
 * The composer's agent picker: a dialog to choose an agent (or the one named after @) and fill its inputs.
 * Starting it opens its conversation, where its work and its children's stream in.
 */
export function AgentPicker({
  isOpen,
  preselect,
  onClose,
}: {
  isOpen: boolean;
  preselect: string | null;
  onClose: () => void;
}) {
  const { agents: store, chat } = useStores();
  const agents = useAgents((state) => state.agents);
  const threadId = useChat((state) => state.conversation.threadId);
  const [chosen, setChosen] = useState<string | null>(preselect);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const usable = (agents ?? []).filter((agent) => agent.enabled);
  const agent = usable.find((candidate) => candidate.name === chosen) ?? null;
  useTabWrap(dialogRef, isOpen);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (isOpen && !dialog.open) {
      dialog.showModal();
      setChosen(preselect);
      void store.getState().load();
    }
    if (!isOpen && dialog.open) dialog.close();
  }, [isOpen, preselect, store]);

  const run = async (inputs: Record<string, string | number | boolean>): Promise<string | null> => {
    if (!agent) return null;
    try {
      // What the run streams before its conversation is open is kept and shown there.
      await chat.getState().openStarted(async () => {
        const started = await store.getState().run(agent.name, inputs, threadId ?? undefined);
        onClose();
        return started;
      });
      void chat.getState().loadThreads();
      return null;
    } catch (error) {
      return toClientError(error).message;
    }
  };

  return (
    <dialog ref={dialogRef} className="agent-picker" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>{agent ? agent.displayName : 'Run an agent'}</h2>
      {!agent && (
        <ul className="agent-picker__list" data-testid="agent-picker-list">
          {usable.map((candidate) => (
            <li key={candidate.name}>
              <button
                type="button"
                className="agent-picker__choice"
                data-testid={`pick-${candidate.name}`}
                onClick={() => setChosen(candidate.name)}
              >
                <strong>{candidate.displayName}</strong>
                <span>{candidate.description}</span>
              </button>
            </li>
          ))}
          {agents !== null && usable.length === 0 && <li>No agents are turned on (Settings → Agents).</li>}
        </ul>
      )}
      {agent && (
        <AgentForm
          key={agent.name}
          agent={agent}
          onRun={run}
          onCancel={() => {
            setChosen(null);
            // Back in the list, focus is on the agent the person left.
            requestAnimationFrame(() =>
              dialogRef.current?.querySelector<HTMLElement>(`[data-testid="pick-${agent.name}"]`)?.focus(),
            );
          }}
        />
      )}
      {!agent && (
        <div className="agent-form__actions">
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
        </div>
      )}
    </dialog>
  );
}

/** `@name` at the start of the composer's text names an agent: the picker opens with it chosen. */
export function agentMention(text: string): string | null {
  const match = /^@([a-z][a-z0-9_]{1,62})\b/.exec(text.trim());
  return match?.[1] ?? null;
}
