import { printBundleSizes } from './bundle-size';

/** `npm run size`: the renderer's JavaScript, gzipped, after a build. */
printBundleSizes();
