import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/contract';
import { storeOf } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { answerMcp, listenLocally, putServer, waitForServer, watchServer } from '../support/mcp-kit';
import { call, say, ScriptedModel } from '../support/scripted-model';

/** A Streamable HTTP MCP server (stateless), answering in JSON or as an event stream, with a tool that answers 11 MB. */
async function httpServer(isJson: boolean): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) =>
    answerMcp(
      request,
      response,
      'far',
      (mcp) => {
        mcp.registerTool('huge', { description: 'Answers with 11 MB.' }, async () => ({
          content: [{ type: 'text', text: 'x'.repeat(11 * 1024 * 1024) }],
        }));
        mcp.registerTool('small', { description: 'Answers with a word.' }, async () => ({
          content: [{ type: 'text', text: 'small answer' }],
        }));
      },
      isJson,
    ),
  );
  return listenLocally(server);
}

describe('an MCP server over HTTP that answers too much', () => {
  let fixture: HostFixture | null = null;
  let server: Server | null = null;

  afterEach(async () => {
    await fixture?.close();
    fixture = null;
    server?.close();
    server = null;
  });

  it.each([
    ['as JSON', true],
    ['as an event stream', false],
  ])(
    'drops an answer over 10 MB %s, says so, keeps none of it, and stays connected',
    async (_how, isJson) => {
      const far = await httpServer(isJson);
      server = far.server;
      const model = new ScriptedModel(
        call('far__huge', { intent: 'get it', confidence: 0.9 }),
        call('far__small', { intent: 'get less', confidence: 0.9 }),
        say('Too big, then small.'),
      );
      fixture = await openHost(model);
      const { host } = fixture;
      await putServer(host, 'far', { transport: 'http', url: far.url, autonomy: 'auto' });
      await waitForServer(host, 'far', (view) => view.state === 'running');
      await host.invoke('settings.set', { trustLevel: 'autonomous' });

      const events: RunEvent[] = [];
      const card = watchServer(host, 'far');
      const run = await host.runToEnd({ prompt: 'Get the huge thing' }, (event) => events.push(event));
      await card.stop();
      expect(run.status).toBe('completed');
      const result = events.find(
        (event): event is Extract<RunEvent, { type: 'tool_result' }> =>
          event.type === 'tool_result' && event.tool === 'far__huge',
      );
      expect(result?.error).toBe(
        'The MCP server “far” answered huge with more than 10 MB, more than Deputy reads, so the answer was dropped; the server is still connected. The call was made; ask for less (a smaller range, a page) if you try again.',
      );
      // One answer was refused, the server did not fail: its card said Running throughout, and the next call was answered.
      expect(new Set(card.seen.map((view) => `${view.state} ${view.error ?? ''}`))).toEqual(
        new Set(['running ']),
      );
      expect(card.seen.at(-1)?.restarts).toBe(0);
      expect(
        events.some(
          (event) =>
            event.type === 'tool_result' && event.tool === 'far__small' && event.state === 'completed',
        ),
      ).toBe(true);
      const { lines } = await host.invoke('mcp.log', { name: 'far' });
      expect(lines.join('\n')).toContain('an answer to huge of more than 10 MB was dropped');
      expect(JSON.stringify(model.requests[1]?.messages.at(-1))).toContain('mcp_answer_too_large');
      const kept = storeOf(host)
        .db.prepare<[], { n: number }>("SELECT count(*) AS n FROM audit WHERE event = 'mcp_full_result'")
        .get();
      expect(kept?.n).toBe(0);
    },
  );
});
