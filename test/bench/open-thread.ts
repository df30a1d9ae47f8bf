import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createHost } from '../../electron/host/create-host';
import { launchBrowser } from '../e2e/support/browser';
import { startHost } from '../e2e/support/host';
import { startFakeGemini } from '../fakes/gemini/server';
import { reportProfile, type CpuProfile } from './cpu-profile';
import { seedRunThread } from './seed-runs';
import { ms, summarize } from './stats';

const TURNS = Number(process.env.DEPUTY_BENCH_OPEN_TURNS ?? 300);
const OPENS = Number(process.env.DEPUTY_BENCH_OPEN_TIMES ?? 7);
/** A folder to write CPU profiles of the host's `thread.get` and of the page opening the conversation into. */
const PROFILE_DIR = process.env.DEPUTY_BENCH_PROFILE;

/**
 * `npm run bench:open`: opening a conversation of `TURNS` turns that a person grew over months (answers, tasks
 * looked up, calls approved and rejected, plans), every turn a real run of the headless host on the fake Gemini.
 * Prints the size of `thread.get`'s answer, the host's time to build it, and in Chromium the time from clicking
 * the conversation in the list to its last answer drawn, split where the answer arrives. Not a test: figures vary.
 */
async function main(): Promise<void> {
  const gemini = await startFakeGemini();
  const dataDir = await mkdtemp(join(tmpdir(), 'deputy-bench-open-'));
  try {
    const seeding = await startHost({ geminiUrl: gemini.url, geminiApiKey: 'fake-key', dataDir });
    const seededAt = performance.now();
    let threadId: string;
    try {
      threadId = await seedRunThread(seeding, gemini, TURNS);
    } finally {
      await seeding.stop();
    }
    console.log(`open: seeded ${TURNS} turns in ${((performance.now() - seededAt) / 1000).toFixed(1)} s`);
    await benchHostSide(dataDir, threadId);
    await benchPage(dataDir, threadId, gemini.url);
  } finally {
    await gemini.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `thread.get` in this process, as the shell's IPC or the server calls it: its size and its time. */
async function benchHostSide(dataDir: string, threadId: string): Promise<void> {
  const host = await createHost({ dataDir, env: {}, logError: () => {} });
  try {
    const read = () => host.invoke('thread.get', { threadId });
    const coldAt = performance.now();
    const detail = await read();
    const cold = performance.now() - coldAt;
    const times: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const at = performance.now();
      JSON.stringify(await read());
      times.push(performance.now() - at);
    }
    const warm = summarize(times);
    const kb = (value: unknown) => `${(JSON.stringify(value ?? null).length / 1024).toFixed(0)} KB`;
    console.log(
      `open: thread.get answers ${kb(detail)} (messages ${detail.messages.length}: ${kb(detail.messages)}, ` +
        `actions ${detail.actions.length}: ${kb(detail.actions)}, runs ${detail.runs.length}: ${kb(detail.runs)}, ` +
        `plans ${detail.plans?.length ?? 0}: ${kb(detail.plans)}, ` +
        `approvals ${detail.approvals?.length ?? 0}: ${kb(detail.approvals)})`,
    );
    console.log(
      `open: the host builds it (and JSON.stringify) in ${ms(cold)} the first time, then median ${ms(warm.median)}, ` +
        `max ${ms(warm.max)} over ${warm.n}`,
    );
    if (PROFILE_DIR) {
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      for (let i = 0; i < 20; i += 1) JSON.stringify(await read());
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      reportProfile(PROFILE_DIR, 'host-thread-get', profile as CpuProfile);
    }
  } finally {
    await host.close();
  }
}

/** In Chromium against the headless host: from clicking the conversation in the list to its last answer drawn. */
async function benchPage(dataDir: string, threadId: string, geminiUrl: string): Promise<void> {
  // The host's own profile covers its whole life (its start too), written when it stops.
  const env = PROFILE_DIR
    ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILE_DIR} --cpu-prof-name=host.cpuprofile` }
    : undefined;
  const host = await startHost({ geminiUrl, geminiApiKey: 'fake-key', dataDir, ...(env && { env }) });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(WATCH_COMMANDS);
    await page.goto(`${host.url}/#token=${host.token}`);
    await page.getByTestId('thread-item').first().waitFor();
    const lastText = `Answer number ${TURNS - 1}.`;
    const opens: Opened[] = [];
    const session = await page.context().newCDPSession(page);
    await session.send('Performance.enable');
    // The page's main-thread time (tasks, and scripts among them), summed by Chromium: less swayed than a
    // wall-clock time by what else the machine runs.
    const busy = async () => {
      const { metrics } = await session.send('Performance.getMetrics');
      const metric = (name: string) => (metrics.find((one) => one.name === name)?.value ?? 0) * 1000;
      return { task: metric('TaskDuration'), script: metric('ScriptDuration') };
    };
    const cdp = PROFILE_DIR ? session : null;
    for (let i = 0; i < OPENS; i += 1) {
      await page.getByTestId('new-conversation').click();
      await page.getByTestId('empty-state').waitFor();
      // The last open is profiled, when asked: the profiler slows what it watches.
      const isProfiled = cdp !== null && i === OPENS - 1;
      if (isProfiled) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await cdp.send('Profiler.start');
      }
      const before = await busy();
      const opened = await timeOpen(page, threadId, lastText);
      const after = await busy();
      opened.task = after.task - before.task;
      opened.script = after.script - before.script;
      if (isProfiled && PROFILE_DIR) {
        const { profile } = await cdp.send('Profiler.stop');
        reportProfile(PROFILE_DIR, 'page-open', profile as CpuProfile);
      } else opens.push(opened);
    }
    // The first open also loads the conversation's code and warms the page: it is reported on its own.
    const [first, ...rest] = opens;
    const total = summarize(rest.map((open) => open.total));
    const waited = summarize(rest.map((open) => open.answeredAt - open.askedAt));
    const drawn = summarize(rest.map((open) => open.total - open.answeredAt));
    const reads = new Set(opens.map((open) => open.reads));
    console.log(
      `open: click → last answer drawn ${ms(first?.total ?? Number.NaN)} the first time, then median ` +
        `${ms(total.median)}, max ${ms(total.max)} over ${total.n}`,
    );
    console.log(
      `open: of which waiting for the first thread.get's answer (host + socket) median ${ms(waited.median)}, from its ` +
        `arrival to the last answer drawn (parse, check, rows, React, layout) median ${ms(drawn.median)}; ` +
        `thread.get asked ${[...reads].join(' or ')} times per open`,
    );
    const quiet = summarize(rest.map((open) => open.quiet));
    const sent = opens.at(-1)?.commands ?? [];
    const counts = [...new Set(sent)].map(
      (channel) => `${channel} ×${sent.filter((one) => one === channel).length}`,
    );
    const task = summarize(rest.map((open) => open.task ?? Number.NaN));
    const script = summarize(rest.map((open) => open.script ?? Number.NaN));
    console.log(
      `open: the page's main thread busy from the click until quiet median ${ms(task.median)} ` +
        `(running scripts ${ms(script.median)})`,
    );
    console.log(
      `open: click → every command answered and the page quiet median ${ms(quiet.median)}, max ${ms(quiet.max)}; ` +
        `the commands of one open: ${counts.join(', ')}`,
    );
  } finally {
    await browser.close();
    await host.stop();
  }
  if (PROFILE_DIR) {
    const profile = JSON.parse(readFileSync(join(PROFILE_DIR, 'host.cpuprofile'), 'utf8')) as CpuProfile;
    reportProfile(PROFILE_DIR, 'host', profile);
  }
}

interface Opened {
  /** ms from the click: the first `thread.get` sent, its answer arrived, the last answer drawn. */
  askedAt: number;
  answeredAt: number;
  total: number;
  reads: number;
  /** ms from the click until every command the open sent is answered and the page drew twice more. */
  quiet: number;
  /** ms of the page's main thread busy from the click until quiet: all its tasks, and running scripts. */
  task?: number;
  script?: number;
  /** Every command the page sent from the click until it was quiet. */
  commands: string[];
}

/**
 * Notes, for the page, when each `thread.get` is sent over the socket and when its answer comes back (the
 * answer is found by its id, read from the start of the frame so the frame is not parsed twice).
 */
const WATCH_COMMANDS = `(() => {
  const commands = (window.benchCommands = []);
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const head = typeof data === 'string' ? /^{"kind":"command","id":"([^"]+)","channel":"([^"]+)"/.exec(data) : null;
    if (head) {
      commands.push({ id: head[1], channel: head[2], sentAt: performance.now(), answeredAt: null });
      if (!this.benchWatched) {
        this.benchWatched = true;
        this.addEventListener('message', (event) => {
          const id = typeof event.data === 'string' ? /^{"kind":"reply","id":"([^"]+)"/.exec(event.data)?.[1] : null;
          const command = commands.find((candidate) => candidate.id === id && candidate.answeredAt === null);
          if (command) command.answeredAt = performance.now();
        });
      }
    }
    return send.call(this, data);
  };
})()`;

// A string: tsx would wrap a named function in a helper the page does not have.
const OPEN_SCRIPT = `(({ threadId, lastText }) => new Promise((resolve) => {
  window.benchCommands.length = 0;
  const start = (window.benchStart = performance.now());
  const observer = new MutationObserver(() => {
    if (document.querySelector('[data-testid="timeline"]')?.textContent?.includes(lastText)) {
      observer.disconnect();
      requestAnimationFrame(() => {
        const reads = window.benchCommands.filter((command) => command.channel === 'thread.get');
        resolve({
          askedAt: (reads[0]?.sentAt ?? NaN) - start,
          answeredAt: (reads[0]?.answeredAt ?? NaN) - start,
          total: performance.now() - start,
          reads: reads.length,
        });
      });
    }
  });
  observer.observe(document.body, { childList: true, subtree: true, characterData: true });
  document.querySelector('[data-testid="thread-item"][data-thread-id="' + threadId + '"]').click();
}))`;

/**
 * Once every command the open sent is answered, and two frames more: the page is quiet, and the person can
 * scroll a page that no longer re-draws for answers still coming in.
 */
const QUIET_SCRIPT = `new Promise((resolve) => {
  const check = () => {
    if (window.benchCommands.every((command) => command.answeredAt !== null))
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - window.benchStart)));
    else requestAnimationFrame(check);
  };
  check();
})`;

async function timeOpen(page: Page, threadId: string, lastText: string): Promise<Opened> {
  const open = await page.evaluateHandle(OPEN_SCRIPT);
  const opened = (await open.evaluate((run, input) => (run as (input: unknown) => Promise<Opened>)(input), {
    threadId,
    lastText,
  })) as Opened;
  const quiet = (await page.evaluate(QUIET_SCRIPT)) as number;
  return {
    ...opened,
    quiet,
    commands: (await page.evaluate('window.benchCommands.map((c) => c.channel)')) as string[],
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
