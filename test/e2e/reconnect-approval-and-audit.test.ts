import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { callReply, textReply } from '../fakes/gemini/script';
import { apiOf, askOver, putSettings, runStatusOf } from './support/api';
import { axeViolations } from './support/axe';
import { useHostedGemini } from './support/hosted';
import { MILK_CALL } from './support/milk';
import { usePages } from './support/pages';
import { cuttableSocket, type SocketCut } from './support/socket-cut';
import { WS_PATH } from '../../shared/contract/ws-names';

const { newPage } = usePages();
const SHOTS = process.env.DEPUTY_SHOTS;

const connectionStatus = (page: Page) => page.getByTestId('connection-status');

describe('the approval window and the audit viewer, after their connection to the host drops and comes back', () => {
  const hosted = useHostedGemini();
  const api = (path: string, init?: RequestInit) => apiOf(hosted.host())(path, init);

  /**
   * Starts a run over the HTTP API that waits for an approval; answers the approval's id. (The model's answer after
   * the approval is scripted as it is approved: a test that fails before then leaves none for the next.)
   */
  async function askForApproval(prompt: string): Promise<string> {
    await putSettings(hosted.host(), { trustLevel: 'supervised' });
    const response = await api('/api/agent/run', { method: 'POST', body: JSON.stringify({ prompt }) });
    const approvalId = ((await response.json()) as { approval?: { id: string } }).approval?.id ?? '';
    expect(approvalId).not.toBe('');
    return approvalId;
  }

  /** A page at `#<path>` whose socket to the host the test can cut. */
  async function openPage(path: string): Promise<{ page: Page; socket: SocketCut }> {
    const page = await newPage();
    const socket = await cuttableSocket(page);
    await page.goto(`${hosted.host().url}/#${path}&token=${hosted.host().token}`);
    return { page, socket };
  }

  /**
   * Cuts the socket and checks the window says so (0 axe, and pictures of it when DEPUTY_SHOTS names a folder), then
   * does `meanwhile` while it is cut, and reconnects; resolves once the window no longer says it is reconnecting.
   */
  async function whileCut(page: Page, socket: SocketCut, name: string, meanwhile: () => Promise<void>) {
    socket.cut();
    await expect
      .poll(() => connectionStatus(page).innerText())
      .toBe('Lost the connection to Deputy. Reconnecting…');
    expect(await axeViolations(page)).toEqual([]);
    if (SHOTS)
      for (const width of [1280, 420])
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: 720 });
          await page.emulateMedia({ colorScheme });
          await page.screenshot({ path: `${SHOTS}/${name}-reconnecting-${width}-${colorScheme}.png` });
        }
    await meanwhile();
    socket.restore();
    await expect.poll(() => connectionStatus(page).innerText()).toBe('');
    expect(socket.connections()).toBe(2);
  }

  it('the audit viewer says it is reconnecting, and then lists what was done meanwhile and shows the open entry as it is now', async () => {
    await putSettings(hosted.host(), { trustLevel: 'autonomous' });
    hosted
      .gemini()
      .script(
        callReply('add_task', { description: 'Renew passport', confidence: 0.95 }),
        textReply('Added it.'),
      );
    const threadId = await askOver(hosted.host(), 'Add a task to renew my passport');
    const { entries } = (await (await api(`/api/audit?threadId=${threadId}`)).json()) as {
      entries: { id: string; actionType: string }[];
    };
    const added = entries.find((entry) => entry.actionType === 'add_task');
    expect(added).toBeDefined();

    const { page, socket } = await openPage(`/audit/${added?.id}`);
    const detail = page.getByTestId('audit-detail');
    const status = detail.getByTestId('audit-detail-status');
    await detail.getByRole('heading', { name: 'Added task “Renew passport”' }).waitFor();
    const before = await status.innerText();
    expect(before).not.toBe('Undone');
    const rows = page.getByTestId('audit-row');
    const asked = rows.filter({ hasText: 'Asked “What is on my list?”' });
    expect(await asked.count()).toBe(0);

    await whileCut(page, socket, 'audit', async () => {
      const undone = await api(`/api/audit/${added?.id}/undo`, { method: 'POST' });
      expect(undone.status).toBe(200);
      hosted.gemini().script(textReply('Nothing yet.'));
      await askOver(hosted.host(), 'What is on my list?');
    });

    // Read again, without a reload: the new run's row, and the open entry undone.
    await asked.waitFor();
    await expect.poll(() => status.innerText()).toBe('Undone');
    await detail.getByRole('heading', { name: 'Added task “Renew passport”' }).waitFor();
  });
  it('the approval window says it is reconnecting, and then shows the approval as decided meanwhile, with Close', async () => {
    hosted.gemini().script(callReply('add_task', MILK_CALL));
    const approvalId = await askForApproval('Add a task to buy milk');

    const { page, socket } = await openPage(`/approval/${approvalId}`);
    const card = page.getByTestId('approval-card');
    await card.and(page.locator('[data-status="pending"]')).waitFor();
    expect(await connectionStatus(page).innerText()).toBe('');

    await whileCut(page, socket, 'approval', async () => {
      hosted.gemini().script(textReply('Added it.'));
      const decided = await api(`/api/actions/${approvalId}/approve`, { method: 'POST' });
      expect(decided.status).toBe(200);
    });

    // (This much it did before it said the drop: `approvals.changed` starts again with the pending list.)
    await card.and(page.locator('[data-status="approved"]')).waitFor();
    await page.getByTestId('approval-window-close').waitFor();
  });

  it('the approval window looks up again, once reconnected, a decided approval whose look-up the drop cut off', async () => {
    hosted.gemini().script(callReply('add_task', MILK_CALL));
    const approvalId = await askForApproval('Add a task to buy oat milk');
    hosted.gemini().script(textReply('Added it.'));
    expect((await api(`/api/actions/${approvalId}/approve`, { method: 'POST' })).status).toBe(200);
    await expect.poll(() => runStatusOf(hosted.host(), 'Add a task to buy oat milk')).toBe('completed');

    // The first socket drops as the window asks for its approval, before the host's answer reaches it.
    const page = await newPage();
    let connections = 0;
    await page.routeWebSocket(
      (url) => url.pathname === WS_PATH,
      (socket) => {
        connections += 1;
        const isFirst = connections === 1;
        const host = socket.connectToServer();
        socket.onMessage((message) => {
          if (isFirst && String(message).includes('"channel":"approval.list"')) {
            void host.close();
            void socket.close({ code: 1001, reason: 'The test cut the connection.' });
          } else host.send(message);
        });
        host.onMessage((message) => socket.send(message));
      },
    );
    await page.goto(`${hosted.host().url}/#/approval/${approvalId}&token=${hosted.host().token}`);

    const card = page.getByTestId('approval-card');
    await card.and(page.locator('[data-status="approved"]')).waitFor();
    expect(connections).toBe(2);
    expect(await page.getByTestId('approval-window-missing').count()).toBe(0);
    await page.getByTestId('approval-window-close').waitFor();
  });

  it('the approval window reads the plan its approval is a step of again: the step approved meanwhile shows done', async () => {
    hosted.gemini().script(
      callReply('propose_plan', {
        goal: 'Add milk to my tasks',
        steps: [
          { id: 'list', title: 'Look at my tasks', tool: 'list_tasks', args: {} },
          { id: 'add', title: 'Add “Buy milk”', tool: 'add_task', args: MILK_CALL, dependsOn: ['list'] },
        ],
      }),
      callReply('list_tasks', {}),
      callReply('add_task', MILK_CALL),
    );
    const approvalId = await askForApproval('Add milk to my tasks, with a plan');
    const { page, socket } = await openPage(`/approval/${approvalId}`);
    const step = page.locator('[data-testid="plan-step"][data-step-id="add"]');
    await step.and(page.locator('[data-status="awaiting_approval"]')).waitFor();

    await whileCut(page, socket, 'approval-plan', async () => {
      hosted.gemini().script(textReply('Added it.'));
      const decided = await api(`/api/actions/${approvalId}/approve`, { method: 'POST' });
      expect(decided.status).toBe(200);
      await expect
        .poll(() => runStatusOf(hosted.host(), 'Add milk to my tasks, with a plan'))
        .toBe('completed');
    });

    await step.and(page.locator('[data-status="done"]')).waitFor();
    await page.getByTestId('plan-tree').and(page.locator('[data-status="completed"]')).waitFor();
  });
});
