import { createHash } from 'node:crypto';
import type { Artifact } from '../../shared/contract';
import type { Db } from './database';
import { parseStoredJson } from './json';

interface Row {
  id: string;
  run_id: string;
  agent_id: string;
  source_run_id: string | null;
  checkpoint_id: string | null;
  artifact_type: Artifact['type'];
  path: string | null;
  content: string | null;
  metadata: string;
  created_at: string;
}

const toArtifact = (row: Row): Artifact => {
  const meta = parseStoredJson(row.metadata) as Partial<Artifact['metadata']> | null;
  return {
    id: row.id,
    runId: row.run_id,
    agentId: row.agent_id,
    sourceRunId: row.source_run_id,
    checkpointId: row.checkpoint_id,
    type: row.artifact_type,
    path: row.path,
    content: row.content,
    metadata: {
      size: typeof meta?.size === 'number' ? meta.size : 0,
      hash: typeof meta?.hash === 'string' ? meta.hash : '',
      mimeType: typeof meta?.mimeType === 'string' ? meta.mimeType : 'application/octet-stream',
    },
    createdAt: row.created_at,
  };
};

export interface NewArtifact {
  id: string;
  runId: string;
  agentId: string;
  sourceRunId: string | null;
  type: Artifact['type'];
  content: string;
  mimeType: string;
  createdAt: string;
}

/** The `artifacts` table (Keep-Up §8.3): inline content with its size, SHA-256 and MIME type. */
export class ArtifactsRepo {
  private readonly insert;
  private readonly selectByRun;
  private readonly selectOne;
  private readonly selectBySource;

  constructor(db: Db) {
    this.insert = db.prepare(
      `INSERT INTO artifacts (id, run_id, agent_id, source_run_id, checkpoint_id, artifact_type, path, content,
       metadata, created_at) VALUES (?, ?, ?, ?, NULL, ?, NULL, ?, ?, ?)`,
    );
    this.selectByRun = db.prepare<[string], Row>(
      'SELECT * FROM artifacts WHERE run_id = ? ORDER BY created_at, rowid LIMIT 500',
    );
    this.selectOne = db.prepare<[string], Row>('SELECT * FROM artifacts WHERE id = ?');
    this.selectBySource = db.prepare<[string, string], Row>(
      'SELECT * FROM artifacts WHERE run_id = ? AND source_run_id = ?',
    );
  }

  /** Registers one artifact; a second registration of the same child's output under the same run is a no-op. */
  add(artifact: NewArtifact): Artifact {
    if (artifact.sourceRunId) {
      const known = this.selectBySource.get(artifact.runId, artifact.sourceRunId);
      if (known) return toArtifact(known);
    }
    const bytes = Buffer.from(artifact.content, 'utf8');
    const metadata = {
      size: bytes.length,
      hash: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
      mimeType: artifact.mimeType,
    };
    this.insert.run(
      artifact.id,
      artifact.runId,
      artifact.agentId,
      artifact.sourceRunId,
      artifact.type,
      artifact.content,
      JSON.stringify(metadata),
      artifact.createdAt,
    );
    return toArtifact(this.selectOne.get(artifact.id) as Row);
  }

  byRun(runId: string): Artifact[] {
    return this.selectByRun.all(runId).map(toArtifact);
  }

  get(id: string): Artifact | null {
    const row = this.selectOne.get(id);
    return row ? toArtifact(row) : null;
  }
}
