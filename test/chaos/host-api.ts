/**
 * The few routes of the headless host's HTTP API the chaos driver uses, as a script would call them. Every
 * call may fail mid-way because the host was killed: callers treat a rejected promise as "the host is gone".
 */
export interface PendingApproval {
  id: string;
  runId: string;
  tool: string;
  /** The plan whose step this call is, when its run made one. */
  planId?: string;
}

export interface HostApi {
  putSettings(patch: Record<string, unknown>): Promise<void>;
  /** Connects Google the way a person does: the sign-in page is "opened" (the fake consents at once). */
  connectGoogle(): Promise<void>;
  connectSlack(token: string): Promise<void>;
  /** Runs to the end and answers with the run's response (for the calibration run). */
  runToEnd(prompt: string): Promise<{ runId: string; status: string; summary: string }>;
  /** Starts a run and resolves with its id as soon as the host streams its first event; the run goes on. */
  startRun(prompt: string): Promise<string>;
  pendingApprovals(): Promise<PendingApproval[]>;
  /** Resolves when the host answers, which is when the run has gone as far as it can. */
  approve(approvalId: string): Promise<void>;
  /** Approves a plan whole, or cancels it. */
  decidePlan(planId: string, verb: 'approve' | 'cancel'): Promise<void>;
}

export class HostApiError extends Error {}

export function createHostApi(url: string, token: string): HostApi {
  const call = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    if (!response.ok) {
      throw new HostApiError(`${method} ${path} answered ${response.status}: ${await response.text()}`);
    }
    return response;
  };
  const json = async (method: string, path: string, body?: unknown): Promise<unknown> =>
    (await call(method, path, body)).json();

  const connectionState = async (name: string): Promise<string | undefined> => {
    const { connections } = (await json('GET', '/api/connections')) as {
      connections: { name: string; state: string; error: string | null }[];
    };
    return connections.find((connection) => connection.name === name)?.state;
  };

  return {
    putSettings: async (patch) => {
      await call('PUT', '/api/settings', patch);
    },
    connectGoogle: async () => {
      const { authUrl } = (await json('POST', '/api/connections/google/start', {})) as {
        authUrl: string | null;
      };
      if (!authUrl) throw new HostApiError('connecting Google gave no sign-in page');
      const page = await fetch(authUrl, { redirect: 'follow' });
      if (!page.ok) throw new HostApiError(`the Google sign-in redirect failed: HTTP ${page.status}`);
      await waitFor(async () => (await connectionState('google')) === 'connected', 'Google to be connected');
    },
    connectSlack: async (slackToken) => {
      await call('PUT', '/api/connections/slack', { token: slackToken });
      if ((await connectionState('slack')) !== 'connected')
        throw new HostApiError('Slack is not connected after the token was accepted');
    },
    runToEnd: async (prompt) =>
      (await json('POST', '/api/agent/run', { prompt })) as {
        runId: string;
        status: string;
        summary: string;
      },
    startRun: async (prompt) => {
      const response = await call('POST', '/api/agent/run/stream', { prompt });
      const reader = response.body?.getReader();
      if (!reader) throw new HostApiError('the run stream has no body');
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) throw new HostApiError('the run stream ended before its first event');
          buffered += decoder.decode(value, { stream: true });
          const newline = buffered.indexOf('\n');
          if (newline >= 0) {
            const event = JSON.parse(buffered.slice(0, newline)) as { runId?: unknown };
            if (typeof event.runId !== 'string') throw new HostApiError('the first run event has no runId');
            return event.runId;
          }
        }
      } finally {
        // The host keeps running a run whose client hung up; the driver follows it through the database.
        void reader.cancel().catch(() => undefined);
      }
    },
    pendingApprovals: async () => {
      const { approvals } = (await json('GET', '/api/actions/pending')) as { approvals: PendingApproval[] };
      return approvals;
    },
    approve: async (approvalId) => {
      await call('POST', `/api/actions/${encodeURIComponent(approvalId)}/approve`, {});
    },
    decidePlan: async (planId, verb) => {
      await call('POST', `/api/plans/${encodeURIComponent(planId)}/${verb}`, {});
    },
  };
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new HostApiError(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
