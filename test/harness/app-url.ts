/**
 * Chromium has no `app://` handler of ours, so a window's page lives at a stand-in https origin and every
 * request to it is answered by the app's own `protocol.handle('app')` handler. The main process only ever
 * sees `app://deputy/…`: these two functions translate at the boundary, in both directions.
 */
export const PAGE_ORIGIN = 'https://app-deputy.harness.invalid';
const APP_ORIGIN = 'app://deputy';

export function toPageUrl(appUrl: string): string {
  return appUrl.startsWith(`${APP_ORIGIN}/`) ? PAGE_ORIGIN + appUrl.slice(APP_ORIGIN.length) : appUrl;
}

export function toAppUrl(pageUrl: string): string {
  return pageUrl.startsWith(`${PAGE_ORIGIN}/`) ? APP_ORIGIN + pageUrl.slice(PAGE_ORIGIN.length) : pageUrl;
}

export const withoutHash = (url: string): string => url.split('#')[0] ?? url;
