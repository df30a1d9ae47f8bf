import { printBundleSizes } from './bundle-size';
import { benchChatThread } from './chat-thread';
import { ms } from './stats';

const MESSAGES = Number(process.env.DEPUTY_BENCH_CHAT_MESSAGES ?? 5_000);

/** `npm run bench:chat`: the long-thread figures of the chat, in Chromium. Not a test: figures vary. */
async function main(): Promise<void> {
  printBundleSizes();
  const chat = await benchChatThread(MESSAGES);
  console.log(
    `chat: opening a ${MESSAGES.toLocaleString('en')}-message thread (ask → last answer painted): ` +
      `median ${ms(chat.open.median)}, max ${ms(chat.open.max)} over ${chat.open.n} opens (target ≤ 300 ms)`,
  );
  const slow = chat.intervals.filter((interval) => interval > 1000 / 60 + 4).length;
  console.log(
    `chat: streaming ${chat.chunks} chunks into it: ${chat.count} frames, frame time median ${ms(chat.frames.median)}, ` +
      `p95 ${ms(chat.frames.p95)}, max ${ms(chat.frames.max)}; ${slow} frames over 20.7 ms ` +
      `(${(1000 / chat.frames.median).toFixed(0)} fps at the median; target 60 fps)`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
