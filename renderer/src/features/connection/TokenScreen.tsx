import { useId, useState, type FormEvent } from 'react';

export type TokenProblem = 'missing' | 'refused' | 'unauthorized' | 'wrong-token';

const EXPLANATIONS: Record<TokenProblem, string> = {
  missing: 'This window needs the API token of your Deputy host to connect.',
  refused: 'Couldn’t reach Deputy. Check that it is running (npm run serve), then try again.',
  'wrong-token':
    'That token is not Deputy’s. Paste the one it printed when it started (npm run serve -- --show-token prints it again).',
  unauthorized: 'Deputy rejected the saved token. Paste the token the host printed.',
};

export function TokenScreen({
  problem,
  onSubmit,
}: {
  problem: TokenProblem;
  onSubmit: (token: string) => void;
}) {
  const [token, setToken] = useState('');
  const inputId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) onSubmit(token.trim());
  };

  return (
    <main className="token-screen" data-testid="token-screen">
      <form onSubmit={submit} aria-labelledby="token-title">
        <h1 id="token-title">Paste your Deputy API token</h1>
        <p role={problem === 'missing' ? undefined : 'alert'}>{EXPLANATIONS[problem]}</p>
        <p className="token-screen__help">
          When the host starts it prints an address like <code>http://127.0.0.1:4747/#token=…</code>. Open
          that address, or paste the part after <code>#token=</code> here.
        </p>
        <label htmlFor={inputId}>Deputy API token</label>
        <input
          id={inputId}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(event) => setToken(event.target.value)}
          autoFocus
        />
        <button type="submit" className="button button--primary" disabled={!token.trim()}>
          Connect
        </button>
      </form>
    </main>
  );
}
