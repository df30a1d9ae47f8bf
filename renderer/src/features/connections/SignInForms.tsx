import { useRef, useState, type FormEvent } from 'react';
import type { ConnectionStatus } from '../../../../shared/contract';
import { SubmitButton } from '../../components/FormParts';
import { useConnections } from '../../stores';
import { connectionErrorId, useConnectionActivity } from './ConnectionCard';
import {
  EMPTY_CLIENT,
  connectLabel,
  googleConnectInput,
  slackConnectInput,
  type ClientFields,
} from './connections-model';

const secretInput = {
  type: 'password',
  autoComplete: 'off',
  spellCheck: false,
} as const;

/**
 * The user's own OAuth client, when the host has none. Only the id stays in the field after a submit:
 * the secret is cleared at once so it lives no longer than the request.
 */
function ClientFieldsInputs({
  fields,
  onChange,
  isRequired,
  testIdPrefix,
}: {
  fields: ClientFields;
  onChange: (fields: ClientFields) => void;
  isRequired: boolean;
  testIdPrefix: string;
}) {
  return (
    <>
      <label>
        Client ID
        <input
          value={fields.clientId}
          required={isRequired}
          autoComplete="off"
          spellCheck={false}
          data-testid={`${testIdPrefix}-client-id`}
          onChange={(event) => onChange({ ...fields, clientId: event.target.value })}
        />
      </label>
      <label>
        Client secret
        <input
          {...secretInput}
          value={fields.clientSecret}
          required={isRequired}
          data-testid={`${testIdPrefix}-client-secret`}
          onChange={(event) => onChange({ ...fields, clientSecret: event.target.value })}
        />
      </label>
    </>
  );
}

/**
 * The secret's field takes the keyboard back when its button is pressed: the field is emptied at once, which
 * disables the button, and a disabled button drops the focus to the page. From the field the person can paste
 * again if the secret is refused, or go on.
 */
function keepKeyboardIn(field: HTMLInputElement | null): void {
  field?.focus();
}

/** A field whose value the service refused: marked invalid, and described by the card's error saying why. */
function refusedField(name: 'gemini' | 'slack') {
  return { 'aria-invalid': true, 'aria-describedby': connectionErrorId(name) } as const;
}

export function GoogleSignIn({ status }: { status: ConnectionStatus }) {
  const connect = useConnections((state) => state.connect);
  const { isBusy } = useConnectionActivity('google');
  const [fields, setFields] = useState(EMPTY_CLIENT);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input = googleConnectInput(status, fields);
    setFields((previous) => ({ ...previous, clientSecret: '' }));
    void connect(input);
  };

  return (
    <form className="connection-card__form" onSubmit={onSubmit} aria-label="Connect Google">
      {!status.isConfigured && (
        <>
          <p className="settings-form__note">
            Deputy signs in to Google with your own OAuth client: in Google Cloud Console, under APIs &amp;
            Services → Credentials, create an OAuth client ID of type “Desktop app” and paste its ID and
            secret here.
          </p>
          <ClientFieldsInputs fields={fields} onChange={setFields} isRequired testIdPrefix="google" />
        </>
      )}
      <div className="connection-card__actions">
        <SubmitButton
          isBusy={isBusy}
          label={connectLabel(status)}
          busyLabel="Starting sign-in…"
          testId="google-connect"
        />
      </div>
    </form>
  );
}

export function SlackSignIn({ status }: { status: ConnectionStatus }) {
  const connect = useConnections((state) => state.connect);
  const { isBusy, isInputRefused } = useConnectionActivity('slack');
  const [token, setToken] = useState('');
  const tokenField = useRef<HTMLInputElement>(null);
  const [fields, setFields] = useState(EMPTY_CLIENT);
  // Which form sent the last connect: a refusal marks the token field only when it was the token refused,
  // not the Slack app's client ID and secret.
  const [lastSent, setLastSent] = useState<'token' | 'browser' | null>(null);
  const tokenProblem = isInputRefused && lastSent === 'token' ? refusedField('slack') : {};
  // Connected, the token form replaces the token, as Gemini's replaces the key: it does not read "Connect".
  const isConnected = status.state === 'connected';

  const onPaste = (event: FormEvent) => {
    event.preventDefault();
    const input = slackConnectInput(status, token, EMPTY_CLIENT);
    setToken('');
    keepKeyboardIn(tokenField.current);
    setLastSent('token');
    void connect(input);
  };

  const onSignIn = (event: FormEvent) => {
    event.preventDefault();
    const input = slackConnectInput(status, '', fields);
    setFields((previous) => ({ ...previous, clientSecret: '' }));
    setLastSent('browser');
    void connect(input);
  };

  return (
    <>
      <form className="connection-card__form" onSubmit={onPaste} aria-label="Connect Slack with a token">
        <label>
          {isConnected ? 'New user token' : 'User token'}
          <input
            {...secretInput}
            value={token}
            ref={tokenField}
            placeholder="xoxp-…"
            {...tokenProblem}
            data-testid="slack-token"
            onChange={(event) => setToken(event.target.value)}
          />
        </label>
        <div className="connection-card__actions">
          <button
            type="submit"
            className="button button--primary"
            disabled={isBusy || token.trim() === ''}
            data-testid="slack-connect-token"
          >
            {isBusy ? 'Checking…' : isConnected ? 'Replace token' : 'Connect with token'}
          </button>
        </div>
      </form>
      {/* Connected, a browser sign-in (and the app's client it needs) does not apply: Disconnect brings it back. */}
      {!isConnected && (
        <form className="connection-card__form" onSubmit={onSignIn} aria-label="Sign in with Slack">
          {!status.isConfigured && (
            <>
              <p className="settings-form__note">
                Or sign in through the browser with your own Slack app: create one at api.slack.com/apps and
                paste its client ID and secret here.
              </p>
              <ClientFieldsInputs fields={fields} onChange={setFields} isRequired testIdPrefix="slack" />
            </>
          )}
          <div className="connection-card__actions">
            <SubmitButton
              isBusy={isBusy}
              label="Sign in with Slack"
              // Busy may be the token's check, beside it: the label stays.
              busyLabel="Sign in with Slack"
              variant="plain"
              testId="slack-sign-in"
            />
          </div>
        </form>
      )}
    </>
  );
}

export function GeminiSignIn({ status }: { status: ConnectionStatus }) {
  const connect = useConnections((state) => state.connect);
  const { isBusy, isInputRefused } = useConnectionActivity('gemini');
  const [apiKey, setApiKey] = useState('');
  const keyField = useRef<HTMLInputElement>(null);
  // A key Gemini refused: the field is marked, and says why through the card's error. Other errors (a locked
  // keychain, a failed Disconnect) are not the key's, so they leave the field alone.
  const problem = isInputRefused ? refusedField('gemini') : {};

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const key = apiKey.trim();
    setApiKey('');
    keepKeyboardIn(keyField.current);
    void connect({ name: 'gemini', apiKey: key });
  };

  return (
    <form className="connection-card__form" onSubmit={onSubmit} aria-label="Connect Gemini">
      <label>
        {status.state === 'connected' ? 'New API key' : 'API key'}
        <input
          {...secretInput}
          ref={keyField}
          value={apiKey}
          {...problem}
          data-testid="gemini-api-key"
          onChange={(event) => setApiKey(event.target.value)}
        />
      </label>
      <p className="settings-form__note">Create a key in Google AI Studio; Deputy keeps it encrypted.</p>
      <div className="connection-card__actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={isBusy || apiKey.trim() === ''}
          data-testid="gemini-connect"
        >
          {isBusy ? 'Saving…' : status.state === 'connected' ? 'Replace key' : 'Connect'}
        </button>
      </div>
    </form>
  );
}
