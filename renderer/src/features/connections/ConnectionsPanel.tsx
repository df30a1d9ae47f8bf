import { useEffect } from 'react';
import type { ConnectionName, ConnectionStatus } from '../../../../shared/contract';
import { useConnections, useStores } from '../../stores';
import { ConnectionCard } from './ConnectionCard';
import { orderConnections } from './connections-model';
import { GeminiSignIn, GoogleSignIn, SlackSignIn } from './SignInForms';

function SignIn({ status }: { status: ConnectionStatus }) {
  switch (status.name) {
    case 'google':
      return <GoogleSignIn status={status} />;
    case 'slack':
      return <SlackSignIn status={status} />;
    case 'gemini':
      return <GeminiSignIn status={status} />;
  }
}

/**
 * Settings → Connections: a card per service, kept current by `connections.changed` while it is shown.
 * `focusOn` names a card whose first field takes the focus, for a screen that sent the person here to fill it.
 */
export function ConnectionsPanel({ focusOn = null }: { focusOn?: ConnectionName | null }) {
  const { connections: store } = useStores();
  const connections = useConnections((state) => state.connections);
  const loadError = useConnections((state) => state.loadError);

  // A sign-in finishes in the browser, outside this window: follow the host's changes while the tab exists.
  useEffect(() => store.getState().follow(), [store]);

  if (connections === null) {
    return <p role={loadError ? 'alert' : 'status'}>{loadError ?? 'Loading connections…'}</p>;
  }
  return (
    <div className="connections" data-testid="connections">
      {loadError && (
        <p className="form-error" role="alert">
          {loadError}
        </p>
      )}
      {orderConnections(connections).map((status) => (
        <ConnectionCard key={status.name} status={status} isFocused={status.name === focusOn}>
          <SignIn status={status} />
        </ConnectionCard>
      ))}
    </div>
  );
}
