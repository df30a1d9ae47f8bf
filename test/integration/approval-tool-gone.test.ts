import { afterEach, describe, expect, it } from 'vitest';
import { NoteWorld } from '../support/durable-kit';
import { openHost, type HostFixture } from '../support/host-fixture';
import { call, say, ScriptedModel } from '../support/scripted-model';

/**
 * An approved call whose tool went away while the approval waited, in the one way Deputy does not settle at once:
 * its MCP server, still running, stopped listing it (a server removed or turned off turns its approvals down itself).
 */
describe('an approval whose tool is no longer listed', () => {
  let fixture: HostFixture | null = null;
  afterEach(async () => {
    await fixture?.close();
    fixture = null;
  });

  it('tells the model the tool was removed, in words without its internal name, and runs nothing', async () => {
    const world = new NoteWorld();
    const tools = world
      .tools()
      .map((tool) =>
        tool.name === 'post_note' ? { ...tool, name: 'board__post_note', mcpServer: 'board' } : tool,
      );
    const model = new ScriptedModel(
      call('board__post_note', { text: 'hello', intent: 'post a note', confidence: 0.95 }),
      say('Not posted.'),
    );
    fixture = await openHost(model, { tools });
    const { host } = fixture;
    const waiting = await host.runToEnd({ prompt: 'Post hello' });
    expect(waiting.approval?.tool).toBe('board__post_note');

    host.internalsForTests().registry.replaceServerTools('board', []);
    const decided = await host.invoke('approval.decide', {
      approvalId: waiting.approval?.id ?? '',
      decision: 'approve',
    });

    expect(decided.status).toBe('completed');
    expect(world.calls.post).toBe(0);
    const answer = JSON.stringify(model.requests[1]?.messages.at(-1));
    expect(answer).toContain('The tool was removed while the approval waited');
    expect(answer).toContain('unknown_tool');
    expect(answer).not.toContain('approval_mismatch');
    expect(answer).not.toContain('board__post_note was');
  });
});
