import { useId, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
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
      <LineAndButton
        line={line}
        lineTestId={`mcp-command-${server.name}`}
        isLineQuiet
        button={{ ref: editing.askButton, testId: `mcp-edit-${server.name}` }}
        onPress={() => {
          setText(line);
          setProblem(null);
          editing.setIsAsking(true);
        }}
      >
        {isStdio ? 'Edit command' : 'Edit address'}
      </LineAndButton>
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

/** A line of a server's card with, beside it, the button that changes it in place (the keyboard comes back to it). */
export function LineAndButton({
  line,
  lineTestId,
  isLineQuiet = false,
  button,
  onPress,
  children,
}: {
  line: string;
  lineTestId: string;
  /** In the muted colour of a note (a command line), rather than the card's text. */
  isLineQuiet?: boolean;
  button: { ref: RefObject<HTMLButtonElement | null>; testId: string };
  onPress: () => void;
  children: ReactNode;
}) {
  return (
    <div className="extensions-panel__target">
      <p className={isLineQuiet ? 'settings-form__note' : undefined} data-testid={lineTestId}>
        {line}
      </p>
      <button ref={button.ref} type="button" className="button" data-testid={button.testId} onClick={onPress}>
        {children}
      </button>
    </div>
  );
}
