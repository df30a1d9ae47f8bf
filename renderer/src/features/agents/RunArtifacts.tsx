import type { Ref } from 'react';
import type { Artifact } from '../../../../shared/contract';
import { formatBytes } from '../../format';
import { CopyButton } from '../chat/CopyButton';
import { useAgentLabel } from './agent-names';

/** Each kind of artifact as a person calls it. */
const KIND_WORDS: Record<Artifact['type'], string> = {
  file: 'File',
  plan: 'Plan',
  report: 'Report',
  draft: 'Draft',
  diagram: 'Diagram',
};

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
        {artifacts.map((artifact) => {
          const by = nameOf(artifact.agentId);
          return (
            <li key={artifact.id} className="artifact" data-testid="artifact">
              <details>
                <summary>
                  {KIND_WORDS[artifact.type]} from {by}{' '}
                  <span className="artifact__size">· {formatBytes(artifact.metadata.size)}</span>
                </summary>
                <pre className="artifact__content" tabIndex={0} data-testid="artifact-content">
                  {artifact.content ?? artifact.path ?? ''}
                </pre>
              </details>
              <CopyButton
                text={artifact.content ?? artifact.path ?? ''}
                label={`Copy the ${artifact.type} from ${by}`}
                testId="artifact-copy"
                isQuiet={false}
              />
            </li>
          );
        })}
      </ul>
    </li>
  );
}
