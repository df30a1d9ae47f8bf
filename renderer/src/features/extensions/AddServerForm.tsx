import { useState, type FormEvent } from 'react';
import { McpServerConfig, McpServerName } from '../../../../shared/contract';
import { FormError, SubmitButton } from '../../components/FormParts';
import { useExtensions, useStores } from '../../stores';
import { parseSecretLines } from './secret-lines';

/** A server typed by hand: a command (stdio) or a URL (HTTP), with secret values that go to the vault. */
export function AddServerForm() {
  const { extensions: store } = useStores();
  const busy = useExtensions((state) => state.busy);
  const [name, setName] = useState('');
  const [target, setTarget] = useState('');
  const [secretLines, setSecretLines] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const isUrl = /^https?:\/\//i.test(target.trim());
    const [command = '', ...args] = target.trim().split(/\s+/);
    const secrets = parseSecretLines(secretLines, isUrl ? 'headers' : 'env');
    const config = McpServerConfig.safeParse({
      transport: isUrl ? 'http' : 'stdio',
      ...(isUrl ? { url: target.trim() } : { command, args }),
      [isUrl ? 'secretHeaders' : 'secretEnv']: Object.keys(isUrl ? secrets.headers : secrets.env),
    });
    const checkedName = McpServerName.safeParse(name);
    if (!checkedName.success || !config.success)
      return setProblem(
        !checkedName.success ? 'The name: letters, digits, "-" and single "_".' : 'Give a command or a URL.',
      );
    setProblem(null);
    if (await store.getState().save(checkedName.data, config.data, secrets)) {
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
