import { useState, type FormEvent } from 'react';
import { FormError, SubmitButton } from '../../components/FormParts';
import { useExtensions, useStores } from '../../stores';
import { readAddServerForm } from './add-server-input';

/** A server typed by hand: a command (stdio) or a URL (HTTP), with secret values that go to the vault. */
export function AddServerForm() {
  const { extensions: store } = useStores();
  const busy = useExtensions((state) => state.busy);
  const servers = useExtensions((state) => state.servers);
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [secretLines, setSecretLines] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const taken = (servers ?? []).map((server) => server.name);
    const input = readAddServerForm({ name, target, secretLines }, taken);
    setProblem(input.ok ? null : input.problem);
    if (!input.ok) return;
    if (await store.getState().save(input.name, input.config, input.secrets)) {
      setName('');
      setTarget('');
      setSecretLines('');
    }
  };

  return (
    <form className="settings-form" onSubmit={(event) => void onSubmit(event)} data-testid="mcp-add-form">
      <label>
        Name
        <input value={name} onChange={(event) => setName(event.target.value)} spellCheck={false} />
      </label>
      <label>
        Command or URL
        <input
          value={target}
          onChange={(event) => setTarget(event.target.value)}
          placeholder="npx -y @modelcontextprotocol/server-filesystem ~/Documents"
          spellCheck={false}
        />
      </label>
      <label>
        Secrets (one NAME=value a line; kept in the vault, never shown again)
        <textarea
          value={secretLines}
          onChange={(event) => setSecretLines(event.target.value)}
          rows={2}
          spellCheck={false}
          autoComplete="off"
        />
      </label>
      {problem && <FormError>{problem}</FormError>}
      <div className="settings-form__actions">
        <SubmitButton isBusy={busy === 'add'} label="Add server" busyLabel="Starting…" />
      </div>
    </form>
  );
}
