import type { ConnectionStatus } from '../../api/ws-client';
import { connectionWords } from './use-read-again';

/**
 * What a window says of its connection to the host, while it is not open. The live region is there, empty, before
 * it speaks: a screen reader may not say one that appears already filled.
 */
export function ConnectionNote({
  status,
  className,
}: {
  status: ConnectionStatus | 'ipc';
  className: string;
}) {
  return (
    <p className={className} role="status" data-testid="connection-status">
      {connectionWords(status)}
    </p>
  );
}
