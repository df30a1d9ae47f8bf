import type { HttpOptions } from '@google/genai';

type Fetch = NonNullable<HttpOptions['fetch']>;

/** What one request's HTTP response said before the SDK turned it into chunks or an ApiError. */
export interface ObservedFetch {
  fetch: Fetch;
  /** Headers have arrived: a transport error from now on cuts an answer short. */
  hasResponse(): boolean;
  /** The SDK's ApiError drops headers, and a 429's Retry-After is one of them. */
  retryAfterHeader(): string | null;
}

export function observeFetch(inner: Fetch = fetch): ObservedFetch {
  let response: Response | null = null;
  return {
    fetch: async (input, init) => {
      response = await inner(input, init);
      return response;
    },
    hasResponse: () => response !== null,
    retryAfterHeader: () => response?.headers.get('retry-after') ?? null,
  };
}
