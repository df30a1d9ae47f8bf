import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { McpServerView } from '../../../../shared/contract';
import { FormError, SubmitButton } from '../../components/FormParts';
import { useStores } from '../../stores';
import { useInlineQuestion } from '../../use-inline-question';
import { readSecretFields, secretsNote, type SecretField } from './secret-lines';
import { LineAndButton } from './ServerTarget';

/** What the card's button for a server's secrets says: to add one when it has none, else to replace them. */
export function secretAction(server: McpServerView): string {
  const count = server.maskedSecrets.length;
  if (count === 0) return 'Add secret';
  return count === 1 ? 'Replace secret' : 'Replace secrets';
}

/**
 * A server's secrets (their names, their values masked) and the button that replaces them in place: the fields open
 * where the line was, Save puts the new values in the vault and starts the server with them, and Cancel, Escape or a
 * save puts the keyboard back on the button. A value typed is never shown again, nor kept once the fields close.
 */
export function ServerSecrets({ server, isBusy }: { server: McpServerView; isBusy: boolean }) {
  const editing = useInlineQuestion();
  const names = server.maskedSecrets.map((secret) => `${secret.name} ${secret.masked}`).join(', ');

  if (!editing.isAsking)
    return (
      <LineAndButton
        line={names ? `Secrets in the vault: ${names}` : 'No secrets in the vault.'}
        lineTestId={`mcp-secrets-${server.name}`}
        button={{ ref: editing.askButton, testId: `mcp-secret-${server.name}` }}
        onPress={() => editing.setIsAsking(true)}
      >
        {secretAction(server)}
      </LineAndButton>
    );
  return <SecretsForm server={server} isBusy={isBusy} close={editing.keep} onKeyDown={editing.onKeyDown} />;
}

/** The fields themselves: their values live here only, and go when the form closes. */
function SecretsForm({
  server,
  isBusy,
  close,
  onKeyDown,
}: {
  server: McpServerView;
  isBusy: boolean;
  close: () => void;
  onKeyDown: (event: KeyboardEvent) => void;
}) {
  const { extensions: store } = useStores();
  const isStdio = server.config.transport === 'stdio';
  const kind = isStdio ? 'env' : 'header';
  // A server with no secret yet gets one, named here: for an address, most often its Authorization header.
  const [fields, setFields] = useState<SecretField[]>(() =>
    server.maskedSecrets.length > 0
      ? server.maskedSecrets.map((secret) => ({ kind: secret.kind, name: secret.name, value: '' }))
      : [{ kind, name: isStdio ? '' : 'Authorization', value: '' }],
  );
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  const isNew = server.maskedSecrets.length === 0;
  const edit = (index: number, change: Partial<SecretField>) =>
    setFields((all) => all.map((field, at) => (at === index ? { ...field, ...change } : field)));
  const invalid = {
    'aria-invalid': problem !== null || undefined,
    'aria-describedby': problem ? problemId : undefined,
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const read = readSecretFields(fields);
    const why = read.ok ? await store.getState().replaceSecrets(server, read.secrets) : read.problem;
    setProblem(why);
    if (why === null) close();
  };

  return (
    <form
      className="connection-card__form"
      data-keeps-escape
      data-testid={`mcp-secret-form-${server.name}`}
      onKeyDown={onKeyDown}
      onSubmit={(event) => void onSubmit(event)}
    >
      {isNew && (
        <label>
          {isStdio ? 'Environment variable' : 'Header'}
          <input
            autoFocus
            value={fields[0]?.name ?? ''}
            onChange={(event) => edit(0, { name: event.target.value })}
            spellCheck={false}
            {...invalid}
          />
        </label>
      )}
      {fields.map((field, index) => (
        <label key={isNew ? 'new' : field.name}>
          {isNew ? 'Its value' : `New value of ${field.name}`}
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            autoFocus={!isNew && index === 0}
            value={field.value}
            placeholder={field.name === 'Authorization' ? 'Bearer …' : undefined}
            onChange={(event) => edit(index, { value: event.target.value })}
            {...invalid}
          />
        </label>
      ))}
      <p className="settings-form__note">{secretsNote(server, fields.length)}</p>
      {problem && <FormError id={problemId}>{problem}</FormError>}
      <div className="settings-form__actions">
        <SubmitButton isBusy={isBusy} label="Save" busyLabel="Saving…" />
        <button type="button" className="button" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
