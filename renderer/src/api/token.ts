import { joinHash, splitHash } from '../route';

const STORAGE_KEY = 'deputy.apiToken';

/**
 * The host prints `http://127.0.0.1:<port>/#token=…`. The token is taken out of the address at once,
 * so it does not stay in the history, a bookmark or a screenshot, and kept in localStorage.
 */
export function takeTokenFromLocation(): string | null {
  const { path, params } = splitHash(window.location.hash);
  const token = params.get('token')?.trim();
  if (!token) return null;
  params.delete('token');
  // The route part of the hash (e.g. `/approval/<id>`) stays.
  const url = `${window.location.pathname}${window.location.search}${joinHash(path, params)}`;
  window.history.replaceState(window.history.state, '', url);
  saveToken(token);
  return token;
}

export function loadToken(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function saveToken(token: string): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Storage can be disabled; the token then lasts as long as the page.
  }
}
