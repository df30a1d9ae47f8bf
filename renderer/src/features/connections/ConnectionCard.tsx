import { useEffect, useId, useRef, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import type { ConnectionName, ConnectionStatus } from '../../../../shared/contract';
import { FormError } from '../../components/FormParts';
import { isFocusLost } from '../../focus';
import { useFocusWithin } from '../../use-focus-within';
import { useInlineQuestion } from '../../use-inline-question';
import { useConnections } from '../../stores';
import { useNow } from '../../use-now';
import {
  CONNECTION_PURPOSES,
  CONNECTION_TITLES,
  stateLabel,
  accountLead,
  canDisconnect,
  describeExpiry,
  scopeLabel,
} from './connections-model';

/** Whether a request for this connection is in flight, and what the last one failed with. */
export function useConnectionActivity(name: ConnectionName) {
  const inFlight = useConnections((state) => state.activity[name]?.inFlight ?? null);
  const error = useConnections((state) => state.activity[name]?.error ?? null);
  const notice = useConnections((state) => state.activity[name]?.notice ?? null);
  const isInputRefused = useConnections((state) => state.activity[name]?.isInputRefused ?? false);
  return { inFlight, error, notice, isInputRefused, isBusy: inFlight !== null };
}

/** The way to connect again (or to change a connection): a card's first field, or its first button. */
const firstControl = (card: HTMLElement | null): HTMLElement | null =>
  card?.querySelector<HTMLElement>('input, textarea, select, button:not(:disabled)') ?? null;

/** The id of a card's error, so the field it is about can point to it (one card per service on a page). */
export const connectionErrorId = (name: ConnectionName): string => `connection-${name}-error`;

function Scopes({ scopes }: { scopes: string[] }) {
  if (scopes.length === 0) return null;
  return (
    <details className="connection-card__scopes" data-testid="connection-scopes">
      <summary>{scopes.length === 1 ? '1 permission' : `${scopes.length} permissions`}</summary>
      <ul>
        {scopes.map((scope) => (
          <li key={scope} title={scope}>
            <code>{scopeLabel(scope)}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}

function WaitingForSignIn({ authUrl }: { authUrl: string | null }) {
  return (
    <div className="connection-card__waiting" data-testid="connection-waiting">
      <p role="status">Waiting for you to finish signing in…</p>
      {authUrl && (
        <p>
          If no browser window opened,{' '}
          <a href={authUrl} target="_blank" rel="noopener noreferrer" data-testid="connection-auth-url">
            open the sign-in page
          </a>{' '}
          on this computer.
        </p>
      )}
    </div>
  );
}

/**
 * Disconnecting forgets a sign-in the user may not easily redo, so it asks first, in place. Escape or Keep closes
 * the question (not Settings) and puts the keyboard back on Disconnect; once disconnected, the keyboard goes to
 * the card's first field or button, the way to connect again, instead of falling to the page with the question.
 */
function DisconnectControl({ status }: { status: ConnectionStatus }) {
  const question = useInlineQuestion();
  const disconnect = useConnections((state) => state.disconnect);
  const { isBusy } = useConnectionActivity(status.name);
  const title = CONNECTION_TITLES[status.name];
  const isCancel = status.state === 'connecting';
  const label = isCancel ? 'Cancel sign-in' : 'Disconnect';

  const confirm = async (card: HTMLElement | null) => {
    await disconnect(status.name);
    // Drawn at once, so the card's fields for connecting again are there to take the keyboard.
    flushSync(() => question.setIsAsking(false));
    if (isFocusLost()) firstControl(card)?.focus();
  };

  if (!question.isAsking) {
    return (
      <button
        ref={question.askButton}
        type="button"
        className="button"
        disabled={isBusy}
        data-testid="connection-disconnect"
        onClick={() => question.setIsAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <div
      className="connection-card__confirm"
      role="group"
      data-keeps-escape
      aria-label={`${label} ${title}?`}
      onKeyDown={question.onKeyDown}
    >
      <span>
        {isCancel
          ? `Stop waiting for the ${title} sign-in?`
          : `Disconnect ${title}? Deputy forgets this sign-in and can no longer use ${title} until you connect again.`}
      </span>
      <button
        type="button"
        className="button button--stop"
        disabled={isBusy}
        autoFocus
        data-testid="connection-disconnect-confirm"
        onClick={(event) => void confirm(event.currentTarget.closest('article'))}
      >
        {isBusy ? 'Disconnecting…' : label}
      </button>
      <button
        type="button"
        className="button"
        disabled={isBusy}
        data-testid="connection-disconnect-keep"
        onClick={question.keep}
      >
        Keep
      </button>
    </div>
  );
}

/**
 * One service: its state, account, permissions and expiry, how to sign in (`children`), and disconnect.
 * `isFocused`: its first field takes the focus (and so scrolls into view) when the card appears.
 */
export function ConnectionCard({
  status,
  isFocused = false,
  children,
}: {
  status: ConnectionStatus;
  isFocused?: boolean;
  children: ReactNode;
}) {
  const titleId = useId();
  const cardRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!isFocused) return;
    const field = firstControl(cardRef.current);
    field?.focus();
    field?.scrollIntoView({ block: 'nearest' });
  }, [isFocused]);
  // A new status can take away what had the keyboard: Google's client fields go once it has the client, and a
  // sign-in finished in the browser, outside this window, redraws the card. The keyboard then goes to the card's
  // first field or button rather than falling to the page; focus the person put elsewhere stays where it is.
  const focus = useFocusWithin();
  useEffect(() => {
    if (focus.wasInside.current && isFocusLost()) firstControl(cardRef.current)?.focus();
  }, [status, focus.wasInside]);
  const now = useNow(30_000, status.expiresAt !== null);
  const { error, notice } = useConnectionActivity(status.name);
  const expiry = describeExpiry(status.expiresAt, now);

  return (
    <article
      ref={cardRef}
      className={`connection-card connection-card--${status.state}`}
      aria-labelledby={titleId}
      data-testid={`connection-${status.name}`}
      data-state={status.state}
      {...focus.handlers}
    >
      <header className="connection-card__header">
        <h3 id={titleId}>{CONNECTION_TITLES[status.name]}</h3>
        <span className="connection-card__state" data-testid="connection-state">
          {stateLabel(status)}
        </span>
      </header>
      <p className="connection-card__purpose">{CONNECTION_PURPOSES[status.name]}</p>
      {status.account && (
        <p className="connection-card__account" data-testid="connection-account">
          {accountLead(status)}
          <strong>{status.account}</strong>
        </p>
      )}
      {expiry && <p className="connection-card__expiry">{expiry}</p>}
      <Scopes scopes={status.scopes} />
      {status.error && (
        <p className="form-error" data-testid="connection-status-error">
          {status.error}
        </p>
      )}
      {status.state === 'connecting' && <WaitingForSignIn authUrl={status.authUrl} />}
      {children}
      {error && (
        <FormError id={connectionErrorId(status.name)} testId="connection-error">
          {error}
        </FormError>
      )}
      {notice && (
        <p className="settings-form__note" role="status" data-testid="connection-notice">
          {notice}
        </p>
      )}
      {canDisconnect(status) && (
        <div className="connection-card__actions">
          <DisconnectControl status={status} />
        </div>
      )}
    </article>
  );
}
