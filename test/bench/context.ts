import { benchContextSearch, printContextFigures } from './context-search';

/**
 * `tsx test/bench/context.ts`: the context figures of `npm run bench` alone, in a fresh process (in the full
 * bench they run after a million audit entries were seeded, whose heap the collector then walks).
 */
printContextFigures(await benchContextSearch(50_000, 50_000));
