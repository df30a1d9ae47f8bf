import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../electron/host/create-host';
import { COMPLETE_TASK } from '../../electron/engine/completion';
import { seedLongThread } from '../e2e/support/seed-thread';
import { dataDirWithAgents } from '../support/agent-kit';
import { closedAfterEach, serveApi } from '../support/api-server';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

const TOKEN = 'thread-export-token';
const SECRET = 'xoxp-2718281828-3141592653-5772156649-fe0a1b2c3d4e5f60718293a4b5c6d7e8';
const { fixtures, servers } = closedAfterEach();

/**
 * A host whose store holds a conversation of 1,200 messages (written long ago, as if it had grown over months)
 * and then two the person had with Deputy, one with a token pasted in it; with its HTTP API.
 */
async function hostWithConversations() {
  const first = await openHost(null);
  await first.stop();
  const longId = seedLongThread(first.dataDir, 1_200, 'Daily lists');
  const fixture = await openHost(new ScriptedModel(say('Rotated.'), say('Blue.')), {
    dataDir: first.dataDir,
  });
  fixtures.push(fixture);
  const pasted = await fixture.host.runToEnd({ prompt: `Rotate this token: ${SECRET}` });
  const sky = await fixture.host.runToEnd({ prompt: 'What colour is the sky?' });
  const { server, api } = await serveApi(fixture, TOKEN);
  servers.push(server);
  return { fixture, api, ids: [longId, pasted.threadId, sky.threadId] };
}

describe('GET /api/threads/export', () => {
  it('streams every conversation as JSON lines, oldest first, page after page, with no secret in it', async () => {
    const { fixture, api, ids } = await hostWithConversations();
    const response = await api('/api/threads/export?format=jsonl');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="deputy-conversations.jsonl"',
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    const lines = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; messages: { role: string; text: string }[] });
    expect(lines.map((line) => [line.id, line.messages.length])).toEqual([
      [ids[0], 1_200],
      [ids[1], 2],
      [ids[2], 2],
    ]);
    expect(lines[2]?.messages).toMatchObject([
      { role: 'user', text: 'What colour is the sky?' },
      { role: 'assistant', text: 'Blue.' },
    ]);
    expect(text).not.toContain(SECRET);
    expect(lines[1]?.messages[0]?.text).toContain('[redacted]');

    // The stream is the command's pages, one after the other: the long conversation took several.
    let pages = 0;
    let joined = '';
    let cursor: string | null | undefined;
    do {
      const page = await fixture.host.invoke('threads.export', {
        format: 'jsonl',
        ...(cursor && { cursor }),
      });
      joined += page.text;
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBeGreaterThan(5);
    expect(joined).toBe(text);
  });

  it('streams one Markdown document, and goes on from a cursor', async () => {
    const { fixture, api } = await hostWithConversations();
    const response = await api('/api/threads/export?format=md');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="deputy-conversations.md"',
    );
    const text = await response.text();
    expect(text).toMatch(/^# Conversations with Deputy\n/);
    expect(text.match(/^## /gm)).toHaveLength(3);
    expect(text).toContain('## What colour is the sky? — ');
    expect(text).toContain('**You:**\n\nWhat colour is the sky?\n\n**Deputy:**\n\nBlue.\n');
    expect(text).not.toContain(SECRET);

    const first = await fixture.host.invoke('threads.export', { format: 'md' });
    expect(first.nextCursor).not.toBeNull();
    const rest = await api(`/api/threads/export?format=md&cursor=${first.nextCursor}`);
    expect(first.text + (await rest.text())).toBe(text);
  });

  it('answers 400 for a format or a cursor it does not know, before any of the export', async () => {
    const { api } = await hostWithConversations();
    for (const query of ['format=csv', 'format=', 'format=md&cursor=abc', 'format=jsonl&cursor=1.2.3']) {
      const response = await api(`/api/threads/export?${query}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-disposition')).toBeNull();
      expect(await response.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    // With no format it is JSON lines, as the audit trail's export.
    expect((await api('/api/threads/export')).headers.get('content-type')).toContain('ndjson');
  });
});

/** What the host reads is renamed from under it, so its next read of `table` fails as a broken database's would. */
function breakTable(fixture: HostFixture, table: string): void {
  const db = new Database(join(fixture.dataDir, DATABASE_FILE));
  try {
    db.exec(`ALTER TABLE ${table} RENAME TO ${table}_gone`);
  } finally {
    db.close();
  }
}

describe('an export that cannot begin', () => {
  it('answers a failure on its first page with a typed error, not a 200 cut off', async () => {
    const { fixture, api } = await hostWithConversations();
    breakTable(fixture, 'messages');
    const response = await api('/api/threads/export?format=jsonl');
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(await response.json()).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('answers the audit trail’s export the same way', async () => {
    const { fixture, api } = await hostWithConversations();
    breakTable(fixture, 'audit_entries');
    const response = await api('/api/audit/export?format=csv');
    expect(response.status).toBe(500);
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(await response.json()).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('refuses with a 400 a cursor no page handed out, of the right form or not', async () => {
    const { fixture, api } = await hostWithConversations();
    const first = await fixture.host.invoke('threads.export', { format: 'jsonl' });
    // Inside the long conversation (the first, at 1), after one of its messages.
    const [position, seq] = (first.nextCursor ?? '').split('.').map(Number) as [number, number];
    expect([position, seq > 0]).toEqual([1, true]);
    const madeUp = [
      '0.5', // before the first conversation
      '0',
      `${position}.0`, // before the first message
      `0${position}.${seq}`, // not as Deputy writes a number
      '9999999999999999', // past what is exact
      `${position}.${seq + 1_000_000}`, // a message never written
      `${position + 1}.${seq}`, // a message of another conversation
    ];
    for (const cursor of madeUp) {
      const response = await api(`/api/threads/export?format=jsonl&cursor=${cursor}`);
      expect([cursor, response.status]).toEqual([cursor, 400]);
      expect(response.headers.get('content-disposition')).toBeNull();
      expect(await response.json()).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      await expect(fixture.host.invoke('threads.export', { format: 'jsonl', cursor })).rejects.toMatchObject({
        code: 'invalid_input',
      });
    }
    // The cursor the page handed out is still good.
    expect((await api(`/api/threads/export?format=jsonl&cursor=${first.nextCursor}`)).status).toBe(200);
  });

  it('passes over quietly a conversation deleted while it was being exported', async () => {
    const { fixture, api, ids } = await hostWithConversations();
    const first = await fixture.host.invoke('threads.export', { format: 'jsonl' });
    await fixture.host.invoke('thread.delete', { threadId: ids[0] ?? '' });
    const rest = await api(`/api/threads/export?format=jsonl&cursor=${first.nextCursor}`);
    expect(rest.status).toBe(200);
    const lines = (first.text + (await rest.text())).trimEnd().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as { id: string });
    expect(parsed.map((line) => line.id)).toEqual(ids);
  });
});

describe('what the export says each conversation said', () => {
  it('is what the conversation shows: a delegated agent’s words under its name, an answer given only as a summary', async () => {
    const model = new ScriptedModel(
      call('delegate_to_agent', { agent: 'helper', task: 'count my tasks' }, 'chat-delegate'),
      [
        { type: 'text', text: 'Zero tasks.' },
        ...call(COMPLETE_TASK, { result: { note: 'Zero tasks.' } }, 'c1'),
      ],
      say('The helper says you have no tasks.'),
      call(COMPLETE_TASK, { result: { note: 'Nothing is open.' } }, 'c2'),
    );
    const fixture = await openHost(model, {
      dataDir: dataDirWithAgents({ name: 'helper', displayName: 'Task helper', tools: ['list_tasks'] }),
    });
    fixtures.push(fixture);
    await fixture.host.runToEnd({ prompt: 'Ask the helper how many tasks I have' });
    // Started from the agent picker, it ends with complete_task and no words: its summary is its answer.
    await fixture.host.runAgentToEnd({ name: 'helper', inputs: { task: 'what is open' } });

    const pages = [];
    let cursor: string | null | undefined;
    do {
      const page = await fixture.host.invoke('threads.export', { format: 'md', ...(cursor && { cursor }) });
      pages.push(page.text);
      cursor = page.nextCursor;
    } while (cursor !== null);
    const said = pages.join('').split(/^## /m).slice(1);
    expect(said[0]).toMatch(/^Ask the helper how many tasks I have — /);
    expect(said[0]?.replace(/^.*\n/, '')).toBe(
      '\n**You:**\n\nAsk the helper how many tasks I have\n' +
        '\n**Task helper:**\n\nZero tasks.\n' +
        '\n**Deputy:**\n\nThe helper says you have no tasks.\n\n',
    );
    expect(said[1]?.replace(/^.*\n/, '')).toBe(
      '\n**You:**\n\nDo this: what is open\n\n**Deputy:**\n\nNote: Nothing is open.\n',
    );
  });

  it('heads a delegated agent with no display name by its name in words, as its row does', async () => {
    const model = new ScriptedModel(
      call('delegate_to_agent', { agent: 'triage_inbox', task: 'look' }, 'chat-delegate'),
      [
        { type: 'text', text: 'All clear.' },
        ...call(COMPLETE_TASK, { result: { note: 'All clear.' } }, 'c1'),
      ],
      say('The inbox is clear.'),
    );
    const fixture = await openHost(model, {
      dataDir: dataDirWithAgents({ name: 'triage_inbox', tools: ['list_tasks'] }),
    });
    fixtures.push(fixture);
    await fixture.host.runToEnd({ prompt: 'Triage my inbox' });
    const { agents } = await fixture.host.invoke('agents.list', {});
    const shown = agents.find((agent) => agent.name === 'triage_inbox')?.displayName;
    expect(shown).toBe('Triage inbox');

    const markdown = await fixture.host.invoke('threads.export', { format: 'md' });
    expect(markdown.nextCursor).toBeNull();
    expect(markdown.text).toContain(`\n**${shown}:**\n\nAll clear.\n`);
    const jsonl = await fixture.host.invoke('threads.export', { format: 'jsonl' });
    const [line] = jsonl.text.trim().split('\n');
    const { messages } = JSON.parse(line ?? '{}') as { messages: { text: string; agent?: string }[] };
    expect(messages.find((message) => message.agent !== undefined)).toMatchObject({
      text: 'All clear.',
      agent: shown,
    });
  });
});
