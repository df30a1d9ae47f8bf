import type { Ref } from 'react';
import type { Artifact } from '../../../../shared/contract';
import { useAgentLabel } from './agent-names';
import { CopyButton } from './CopyButton';

/** What the agents of a run made: each artifact readable in place and copyable. */
export function RunArtifacts({
  artifacts,
  row,
}: {
  artifacts: readonly Artifact[];
  row?: { ref?: Ref<HTMLLIElement>; 'data-index'?: number };
}) {
  // Each agent by the name the person knows it by ("Task helper"), as its row in the chat says it.
  const agentLabel = useAgentLabel();
  const nameOf = (agentId: string) => agentLabel(agentId) ?? agentId;
  return (
    <li className="run-artifacts" data-testid="run-artifacts" {...row}>
      <h3 className="run-artifacts__title">Made by agents</h3>
      <ul>
        {artifacts.map((artifact) => (
          <li key={artifact.id} className="artifact" data-testid="artifact">
            <details>
              <summary>
                {nameOf(artifact.agentId)}: {artifact.type} ({formatSize(artifact.metadata.size)})
              </summary>
              <pre className="artifact__content" tabIndex={0} data-testid="artifact-content">
                {artifact.content ?? artifact.path ?? ''}
              </pre>
            </details>
            <CopyButton
              text={artifact.content ?? artifact.path ?? ''}
              label={`Copy the ${artifact.type} from ${nameOf(artifact.agentId)}`}
            />
          </li>
        ))}
      </ul>
    </li>
  );
}

function formatSize(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}
