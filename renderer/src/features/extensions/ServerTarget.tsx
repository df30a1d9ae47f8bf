import { useId, useState, type FormEvent } from 'react';
import type { McpServerView } from '../../../../shared/contract';
import { FormError, SubmitButton } from '../../components/FormParts';
import { useStores } from '../../stores';
import { useInlineQuestion } from '../../use-inline-question';
import { readEditedTarget, targetLine } from './add-server-input';

/**
 * How a server is started (its command line) or reached (its address), and Edit, which changes it in place: the
 * field opens where the line was, Save starts the server with what it says, and Cancel, Escape or a save puts the
 * keyboard back on Edit.
 */
export function ServerTarget({ server, isBusy }: { server: McpServerView; isBusy: boolean }) {
  const { extensions: store } = useStores();
  const editing = useInlineQuestion();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  const isStdio = server.config.transport === 'stdio';
  const line = targetLine(server.config);

  if (!editing.isAsking)
    return (
      <div className="extensions-panel__target">
        <p className="settings-form__note" data-testid={`mcp-command-${server.name}`}>
          {line}
        </p>
        <button
          ref={editing.askButton}
          type="button"
          className="button"
          data-testid={`mcp-edit-${server.name}`}
          onClick={() => {
            setText(line);
            setProblem(null);
            editing.setIsAsking(true);
          }}
        >
          {isStdio ? 'Edit command' : 'Edit address'}
        </button>
      </div>
    );

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const edited = readEditedTarget(text, server.config);
    const why = edited.ok ? await store.getState().changeTarget(server, edited.changes) : edited.problem;
    setProblem(why);
    if (why === null) editing.keep();
  };

  return (
    <form
      className="connection-card__form"
      data-keeps-escape
      data-testid={`mcp-edit-form-${server.name}`}
      onKeyDown={editing.onKeyDown}
      onSubmit={(event) => void onSubmit(event)}
    >
      <label>
        {isStdio ? `Command that starts ${server.name}` : `Address of ${server.name}`}
        <input
          autoFocus
          value={text}
          onChange={(event) => setText(event.target.value)}
          spellCheck={false}
          aria-invalid={problem !== null || undefined}
          aria-describedby={problem === null ? undefined : problemId}
        />
      </label>
      {problem && <FormError id={problemId}>{problem}</FormError>}
      <div className="settings-form__actions">
        <SubmitButton isBusy={isBusy} label="Save" busyLabel="Saving…" />
        <button type="button" className="button" onClick={editing.keep}>
          Cancel
        </button>
      </div>
    </form>
  );
}
