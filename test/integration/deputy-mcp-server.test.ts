import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Host } from '../../electron/host/create-host';
import { startFakeGoogle, type FakeGoogle } from '../fakes/google/server';
import { serveApi, type ApiServer } from '../support/api-server';
import { connectGoogle, googleEnv } from '../support/connect';
import { storeOf } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';

const TOKEN = 'deputy-mcp-test-token-0123456789';

let google: FakeGoogle;
let fixture: HostFixture;
let api: ApiServer;

afterEach(async () => {
  await api.server.close();
  await fixture.close();
  await google.close();
});

async function start(): Promise<Host> {
  google = await startFakeGoogle();
  // No language model at all: another MCP client chooses the calls.
  fixture = await openHost(null, { env: { ...googleEnv(google), GEMINI_API_KEY: '' } });
  await fixture.host.invoke('settings.set', { userEmail: 'me@example.com' });
  await connectGoogle(fixture.host);
  api = await serveApi(fixture, TOKEN);
  return fixture.host;
}

async function connectClient(token = TOKEN): Promise<Client> {
  const client = new Client({ name: 'test-desktop', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${api.server.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

async function pendingApproval(host: Host, tool: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const { approvals } = await host.invoke('approval.list', { status: 'pending' });
    const found = approvals.find((approval) => approval.tool === tool);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no pending approval for ${tool}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const mail = (subject: string) => ({ to: ['ana@example.com'], subject, body: 'The numbers are attached.' });

describe('Deputy as an MCP server, driven by the SDK client', () => {
  it('offers its own tools, refuses a client without the token, and runs every call under approvals', async () => {
    const host = await start();
    await expect(connectClient('wrong-token')).rejects.toThrow();

    const client = await connectClient();
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['gmail_send', 'add_task', 'list_tasks', 'search_memory']));
    const send = tools.find((tool) => tool.name === 'gmail_send');
    expect(send?.annotations?.readOnlyHint).toBe(false);
    // The model's meta-parameters are Deputy's own business, not the client's.
    expect(Object.keys(send?.inputSchema.properties ?? {})).not.toContain('confidence');

    // Approve: the call waits for the person, then the mail is really sent and the client gets the result.
    const approvedCall = client.callTool({ name: 'gmail_send', arguments: mail('Q4 numbers') });
    const first = await pendingApproval(host, 'gmail_send');
    expect(google.gmail.sent).toHaveLength(0);
    expect(first.args).toMatchObject({ to: ['ana@example.com'], subject: 'Q4 numbers' });
    await host.invoke('approval.decide', { approvalId: first.id, decision: 'approve' });
    const done = await approvedCall;
    expect(done.isError).toBeFalsy();
    expect(JSON.stringify(done.content)).toContain('messageId');
    expect(google.gmail.sent).toHaveLength(1);

    // Reject: the client hears a clear refusal, and nothing is sent.
    const rejectedCall = client.callTool({ name: 'gmail_send', arguments: mail('Q4 numbers, again') });
    const second = await pendingApproval(host, 'gmail_send');
    // As a person types it, with no full stop: the sentence after it still reads as one.
    await host.invoke('approval.decide', { approvalId: second.id, decision: 'reject', reason: 'not twice' });
    const refused = await rejectedCall;
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([
      {
        type: 'text',
        text: 'Refused by Deputy: The user rejected this action: not twice. Do not retry it unless they ask.',
      },
    ]);
    expect(google.gmail.sent).toHaveLength(1);

    // The ledger and the audit trail hold both calls, with the person's decisions.
    const store = storeOf(host);
    const ledger = store.db
      .prepare<[], { state: string; run_id: string }>(
        "SELECT state, run_id FROM actions WHERE tool = 'gmail_send' ORDER BY created_at",
      )
      .all();
    expect(ledger.map((row) => row.state)).toEqual(['committed', 'rejected']);
    const audit = store.db
      .prepare<[], { event: string; decision: string | null }>(
        "SELECT event, decision FROM audit WHERE tool = 'gmail_send' ORDER BY id",
      )
      .all();
    expect(audit).toEqual(
      expect.arrayContaining([
        { event: 'policy_decision', decision: 'require_approval' },
        expect.objectContaining({ decision: 'approved' }),
        expect.objectContaining({ decision: 'rejected' }),
      ]),
    );
    // Each call is a run of its own thread, which says an MCP client asked for it.
    const { threads } = await host.invoke('threads.list', {});
    expect(threads.filter((thread) => thread.title.includes('MCP client'))).toHaveLength(2);
    await client.close();
  });

  it('runs a read at once, without approval', async () => {
    const host = await start();
    const client = await connectClient();
    const listed = await client.callTool({ name: 'list_tasks', arguments: {} });
    expect(listed.isError).toBeFalsy();
    const { approvals } = await host.invoke('approval.list', { status: 'pending' });
    expect(approvals).toHaveLength(0);
    // A malformed call is the client's mistake (invalid params), not Deputy's (internal error), and says in one
    // plain sentence which argument is wrong: not zod's words, and not "MCP error -32602:" twice.
    for (const [params, words] of [
      [{ name: 'no_such_tool', arguments: {} }, 'Deputy has no tool named "no_such_tool".'],
      [
        { name: 'add_task', arguments: null },
        'The call\'s "arguments" must be an object of the tool\'s arguments ({} for none).',
      ],
      [
        { name: 42, arguments: {} },
        'The call\'s "name" must be the name of one of Deputy\'s tools, as text.',
      ],
      [{ arguments: {} }, 'The call\'s "name" must be the name of one of Deputy\'s tools, as text.'],
    ] as unknown as [Parameters<Client['callTool']>[0], string][]) {
      const refused = await client.callTool(params).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(McpError);
      expect(refused).toMatchObject({ code: ErrorCode.InvalidParams });
      // The SDK's client puts "MCP error <code>: " before what Deputy sent, once.
      expect((refused as McpError).message).toBe(`MCP error ${ErrorCode.InvalidParams}: ${words}`);
    }
    expect((await client.callTool({ name: 'list_tasks', arguments: {} })).isError).toBeFalsy();
    await client.close();
  });

  it('tells a client what is wrong with its arguments in the words the model reads, and runs nothing', async () => {
    const host = await start();
    const client = await connectClient();
    for (const [args, words] of [
      [{ description: 42 }, "add_task's description must be text, not a number."],
      [{}, "add_task's description is missing: it is required, as text."],
      [
        { description: 'Buy milk', priority: 'high' },
        'add_task has no argument named "priority": leave it out.',
      ],
      [
        { description: 'Buy milk', due: 'soon' },
        "add_task's due: use an ISO date (2026-11-22) or date-time (2026-11-22T09:00).",
      ],
    ] as const) {
      const answer = await client.callTool({ name: 'add_task', arguments: args });
      expect(answer.isError).toBe(true);
      expect(answer.content).toEqual([{ type: 'text', text: `Failed: ${words}` }]);
    }
    const { approvals } = await host.invoke('approval.list', { status: 'pending' });
    expect(approvals).toHaveLength(0);
    expect((await host.invoke('tasks.list', {})).tasks).toHaveLength(0);
    await client.close();
  });

  it('is reached over stdio through npm run mcp, which passes every message on to the running host', async () => {
    const host = await start();
    const tsx = join(createRequire(import.meta.url).resolve('tsx/package.json'), '..', 'dist', 'cli.mjs');
    const client = new Client({ name: 'stdio-desktop', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [tsx, join(import.meta.dirname, '..', '..', 'electron', 'mcp-stdio.ts')],
        env: { DEPUTY_API_TOKEN: TOKEN, DEPUTY_URL: api.server.url, PATH: process.env.PATH ?? '' },
        stderr: 'pipe',
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('add_task');
    const pending = client.callTool({ name: 'add_task', arguments: { description: 'Renew passport' } });
    const approval = await pendingApproval(host, 'add_task');
    await host.invoke('approval.decide', { approvalId: approval.id, decision: 'approve' });
    expect((await pending).isError).toBeFalsy();
    const listed = await client.callTool({ name: 'list_tasks', arguments: {} });
    expect(JSON.stringify(listed.content)).toContain('Renew passport');
    await client.close();
  }, 30_000);

  it('rejects what a call waits for when its client goes away, so it never runs later', async () => {
    const host = await start();
    const client = await connectClient();
    const waiting = client.callTool({ name: 'gmail_send', arguments: mail('Left behind') }).catch(() => null);
    const approval = await pendingApproval(host, 'gmail_send');
    await client.close();
    await waiting;
    const deadline = Date.now() + 10_000;
    let status = approval.status;
    while (status === 'pending' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      status =
        (await host.invoke('approval.list', { status: 'all' })).approvals.find(
          (candidate) => candidate.id === approval.id,
        )?.status ?? 'pending';
    }
    expect(status).toBe('rejected');
    expect(google.gmail.sent).toHaveLength(0);
  });
});
