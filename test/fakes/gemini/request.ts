import { z } from 'zod';
import type { GeminiMethod, GeminiRequestBody } from './types';

/** Reads what the client asked for: the route from the URL and the JSON body. */

const ROUTE = /^\/([^/]+)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

export interface Route {
  path: string;
  apiVersion: string;
  model: string;
  method: GeminiMethod;
}

export function parseRoute(rawUrl: string): Route | null {
  const path = new URL(rawUrl, 'http://fake').pathname;
  const match = ROUTE.exec(path);
  if (match === null) return null;
  const [, apiVersion = '', model = '', method] = match;
  if (method !== 'generateContent' && method !== 'streamGenerateContent') return null;
  return { path, apiVersion, model: decodeURIComponent(model), method };
}

const record = z.record(z.string(), z.unknown());

const part = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  functionCall: z
    .object({ id: z.string().optional(), name: z.string().optional(), args: record.optional() })
    .optional(),
  functionResponse: z
    .object({ id: z.string().optional(), name: z.string().optional(), response: record.optional() })
    .optional(),
});

const content = z.object({ role: z.string().optional(), parts: z.array(part).optional() });

const requestBody = z.looseObject({
  contents: z.array(content).optional(),
  systemInstruction: content.optional(),
  tools: z.array(z.looseObject({ functionDeclarations: z.array(record).optional() })).optional(),
});

export function parseBody(raw: string): GeminiRequestBody | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return null;
  }
  const parsed = requestBody.safeParse(json);
  return parsed.success ? parsed.data : null;
}
