import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiClient } from '../../electron/llm/gemini-client';
import { RunEvent, RunResponse } from '../../shared/contract';
import { startFakeGemini } from '../fakes/gemini/server';
import type { FakeGemini } from '../fakes/gemini/types';
import { agentDefinition, dataDirWithAgents } from '../support/agent-kit';
import { serveApi, type ApiServer } from '../support/api-server';
import { openHost, type HostFixture } from '../support/host-fixture';
import { ScriptedModel } from '../support/scripted-model';

const TOKEN = 'agents-api-token';
let fixture: HostFixture | undefined;
let http: ApiServer | undefined;
let gemini: FakeGemini | undefined;
afterEach(async () => {
  await http?.server.close();
  await fixture?.close();
  await gemini?.close();
  fixture = http = gemini = undefined;
});

const complete = (note: string) => ({
  kind: 'reply' as const,
  chunks: [
    {
      calls: [{ name: 'complete_task', args: { result: { note } } }],
      finishReason: 'STOP',
      usage: { prompt: 120, output: 30 },
    },
  ],
});

/** The real Gemini client against the fake, behind the real HTTP API. */
async function serve(): Promise<{ api: ApiServer['api']; gemini: FakeGemini }> {
  gemini = await startFakeGemini();
  const dataDir = dataDirWithAgents({
    name: 'task_scout',
    tools: ['list_tasks'],
    modelConfig: { model: 'gemini-2.5-pro', temp: 0.3, top_p: 0.7, thinkingBudget: 256 },
  });
  fixture = await openHost(
    createGeminiClient({ apiKey: 'AIzaFAKEagentsKey0123456789', baseUrl: gemini.url }),
    {
      dataDir,
    },
  );
  http = await serveApi(fixture, TOKEN);
  return { api: http.api, gemini };
}

describe('the agents API', () => {
  it('lists the agents with their inputs, and answers a run in the runtime shape with a checked output', async () => {
    const { api, gemini } = await serve();
    const list = (await (await api('/api/agents')).json()) as { agents: { name: string; source: string }[] };
    expect(list.agents.map((agent) => `${agent.source}:${agent.name}`).sort()).toEqual([
      'builtin:inbox_triage',
      'builtin:meeting_scheduler',
      'builtin:researcher',
      'builtin:reviewer',
      'user:task_scout',
    ]);
    const one = (await (await api('/api/agents/researcher')).json()) as { agent: { inputs: unknown[] } };
    expect(one.agent.inputs).toEqual([
      { name: 'question', description: 'The question to research, in full.', type: 'string', required: true },
    ]);

    gemini.script(complete('All clear.'));
    const response = await api('/api/agents/task_scout/run', {
      method: 'POST',
      body: JSON.stringify({ inputs: { task: 'check' } }),
    });
    expect(response.status).toBe(200);
    const body = RunResponse.parse(await response.json());
    expect(body).toMatchObject({
      ok: true,
      status: 'completed',
      summary: 'Note: All clear.',
      output: { result: { note: 'All clear.' } },
      model: 'gemini-2.5-pro',
    });
    // modelConfig reaches Gemini's request.
    const sent = gemini.requests[0];
    expect(sent?.model).toBe('gemini-2.5-pro');
    expect(sent?.body.generationConfig).toMatchObject({
      temperature: 0.3,
      topP: 0.7,
      thinkingConfig: { thinkingBudget: 256 },
    });
    const declared = sent?.body.tools?.[0]?.functionDeclarations?.map(
      (tool: Record<string, unknown>) => tool.name,
    );
    expect(declared).toEqual([
      'list_tasks',
      'request_clarification',
      'refuse',
      'state_intent',
      'complete_task',
    ]);

    const lineage = (await (await api(`/api/runs/${body.runId}/lineage`)).json()) as {
      nodes: { role: string; usage: { inputTokens: number } }[];
    };
    expect(lineage.nodes).toMatchObject([{ role: 'task_scout', usage: { inputTokens: 120 } }]);
    const artifacts = (await (await api(`/api/artifacts?run=${body.runId}`)).json()) as {
      artifacts: { id: string; content: string }[];
    };
    expect(artifacts.artifacts.map((artifact) => artifact.content)).toEqual(['Note: All clear.']);
    const artifact = await api(`/api/artifacts/${artifacts.artifacts[0]?.id ?? ''}`);
    expect(((await artifact.json()) as { artifact: { content: string } }).artifact.content).toBe(
      'Note: All clear.',
    );
  });

  it('streams an agent run as NDJSON ending with its result', async () => {
    const { api, gemini } = await serve();
    gemini.script(complete('Streamed.'));
    const response = await api('/api/agents/task_scout/run/stream', {
      method: 'POST',
      body: JSON.stringify({ inputs: { task: 'stream it' } }),
    });
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const events = (await response.text())
      .trim()
      .split('\n')
      .map((line) => RunEvent.parse(JSON.parse(line)));
    expect(events[0]).toMatchObject({ type: 'status', status: 'queued' });
    const last = events.at(-1);
    expect(last?.type === 'result' && last.result.output).toEqual({ result: { note: 'Streamed.' } });
  });

  it('answers bad requests with typed 4xx errors', async () => {
    const { api } = await serve();
    const bad = await api('/api/agents/task_scout/run', {
      method: 'POST',
      body: JSON.stringify({ inputs: {} }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect((await api('/api/agents/nobody')).status).toBe(404);
    expect((await api('/api/agents/nobody/run', { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await api('/api/artifacts')).status).toBe(400);
    expect((await api('/api/artifacts/nothing-here')).status).toBe(404);
    expect((await api('/api/runs/nothing-here/lineage')).status).toBe(404);
  });

  it('lists both files that give one agent name, each naming the other, and a built-in’s name taken', async () => {
    const dataDir = dataDirWithAgents();
    for (const file of ['twin-a.yaml', 'twin-b.yaml', 'researcher-copy.yaml'])
      writeFileSync(
        join(dataDir, 'agents', file),
        stringify(agentDefinition({ name: file.startsWith('twin') ? 'twin' : 'researcher', tools: [] })),
      );
    fixture = await openHost(new ScriptedModel(), { dataDir });
    http = await serveApi(fixture, TOKEN);
    const list = (await (await http.api('/api/agents')).json()) as {
      agents: { name: string; sameName?: string }[];
      errors: { file: string; message: string }[];
    };
    expect(list.agents.map((agent) => agent.name)).not.toContain('twin');
    expect(list.agents.find((agent) => agent.name === 'researcher')?.sameName).toContain(
      'agents/researcher-copy.yaml',
    );
    expect(list.errors.map((error) => [error.file, error.message.split(' ').slice(0, 8).join(' ')])).toEqual([
      ['agents/researcher-copy.yaml', 'The name “researcher” is already used by the'],
      ['agents/twin-a.yaml', 'agents/twin-b.yaml also names an agent “twin”, so neither'],
      ['agents/twin-b.yaml', 'agents/twin-a.yaml also names an agent “twin”, so neither'],
    ]);
  });
});
