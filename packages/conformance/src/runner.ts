import { randomBytes } from 'node:crypto';
import type { Case, Step, Target } from './case.js';
import { interpolate, mismatches, pathValue, type Variables } from './match.js';

/** Where a run sends its requests. */
export interface RunTarget {
  name: Target;
  /** Origin the paths are appended to, e.g. `http://127.0.0.1:5000`. */
  baseUrl: string;
  /** The fetch to use; the global one by default (which MSW intercepts for the mocks). */
  fetch?: typeof fetch;
}

/** The password of every account a setup makes. */
export const SETUP_PASSWORD = 'correct horse battery staple';

/** An answer as a step sees it. */
interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** A step that did not get the answer it expects; names the case, the step and every mismatch. */
export class ConformanceFailure extends Error {
  override name = 'ConformanceFailure';
}

/**
 * Runs one case against a target: makes its setup through the public API, then sends each step's request and
 * checks the answer. Throws a {@link ConformanceFailure} at the first step that does not match.
 */
export async function runCase(testCase: Case, target: RunTarget): Promise<void> {
  const variables: Variables = { $unique: randomBytes(8).toString('hex') };
  const credentials = new Map<string, 'account' | 'key'>();
  const steps: { step: Step; label: string }[] = [];
  for (const fixture of testCase.setup ?? []) {
    if ('account' in fixture) {
      const name = fixture.account;
      const email = `${name}-${variables.$unique}@example.com`;
      steps.push({
        label: `setup: account ${name}`,
        step: {
          request: {
            method: 'POST',
            path: '/api/auth/signup',
            json: { email, password: SETUP_PASSWORD, name },
          },
          expect: { status: 201 },
          capture: { [name]: 'body' },
        },
      });
      credentials.set(name, 'account');
      variables[`$${name}`] = { email, password: SETUP_PASSWORD };
    } else {
      steps.push({
        label: `setup: key ${fixture.key}`,
        step: {
          request: {
            method: 'POST',
            path: '/api/keys',
            auth: fixture.owner,
            json: { name: fixture.key, scopes: fixture.scopes },
          },
          expect: { status: 201 },
          capture: { [fixture.key]: 'body' },
        },
      });
      credentials.set(fixture.key, 'key');
    }
  }
  testCase.steps.forEach((step, i) => {
    steps.push({ step, label: `step ${i + 1}${step.title ? ` (${step.title})` : ''}` });
  });

  for (const { step, label } of steps) {
    const answer = await send(step, target, variables, credentials).catch((error: Error) => {
      throw new ConformanceFailure(`${testCase.title}\n${label}: ${error.message}`);
    });
    // Captures come first, so a step can compare two parts of its own answer.
    for (const [name, source] of Object.entries(step.capture ?? {})) {
      const value = captured(answer, source);
      // An account keeps its e-mail and password beside the sign-up answer.
      const extra = variables[`$${name}`];
      variables[name] = extra && typeof value === 'object' ? { ...value, ...extra } : value;
    }
    const problems = check(step, answer, variables);
    if (problems.length > 0) {
      const request = `${step.request.method} ${step.request.path}`;
      throw new ConformanceFailure(
        `${testCase.title}\n${label}: ${request} on ${target.name}\n  ${problems.join('\n  ')}\n  answer: ${answer.status} ${JSON.stringify(answer.body)?.slice(0, 600)}`,
      );
    }
  }
}

async function send(
  step: Step,
  target: RunTarget,
  variables: Variables,
  credentials: ReadonlyMap<string, 'account' | 'key'>,
): Promise<Answer> {
  const { request } = step;
  const headers: Record<string, string> = {};
  if (request.auth) {
    const kind = credentials.get(request.auth);
    if (kind === 'account') headers.authorization = `Bearer ${pathValue(variables, `${request.auth}.token`)}`;
    else if (kind === 'key') headers['x-api-key'] = String(pathValue(variables, `${request.auth}.secret`));
    else throw new Error(`auth names ${request.auth}, which the setup does not make`);
  }
  let sent: string | undefined;
  if (request.json !== undefined) {
    sent = JSON.stringify(interpolate(request.json, variables));
    headers['content-type'] = 'application/json';
  } else if (request.body !== undefined) {
    sent = String(interpolate(request.body, variables)).repeat(request.repeatBody ?? 1);
  }
  for (const [name, value] of Object.entries(request.headers ?? {}))
    headers[name.toLowerCase()] = String(interpolate(value, variables));
  const path = String(interpolate(request.path, variables));
  // Bytes, not a string: fetch would label a string `text/plain`, and a body without a Content-Type is a case.
  const body = sent === undefined ? undefined : new TextEncoder().encode(sent);
  const response = await (target.fetch ?? fetch)(target.baseUrl + path, {
    method: request.method,
    headers,
    body,
    redirect: 'manual',
  });
  // A stream is left once its headers are read; an error answer to it is plain JSON, read as any other.
  if (request.stream && response.status < 400) {
    void response.body?.cancel().catch(() => {});
    return { status: response.status, headers: response.headers, body: undefined };
  }
  const text = await response.text();
  let parsed: unknown = text === '' ? undefined : text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed };
}

function check(step: Step, answer: Answer, variables: Variables): string[] {
  const { expect } = step;
  const problems: string[] = [];
  if (answer.status !== expect.status)
    problems.push(`status: expected ${expect.status}, got ${answer.status}`);
  if (answer.status >= 400) {
    problems.push(
      ...mismatches(
        answer.body,
        {
          error: { $type: 'string' },
          code: expect.code ?? { $type: 'string' },
          requestId: answer.headers.get('x-request-id') ?? { $any: true },
        },
        variables,
        'body',
      ),
    );
  } else if (expect.code !== undefined) {
    problems.push(`code: expected ${expect.code}, but the answer is a success`);
  }
  for (const [name, matcher] of Object.entries(expect.headers ?? {})) {
    const value = answer.headers.get(name) ?? undefined;
    problems.push(...mismatches(value, matcher, variables, `headers.${name.toLowerCase()}`));
  }
  if (expect.body !== undefined) problems.push(...mismatches(answer.body, expect.body, variables, 'body'));
  return problems;
}

function captured(answer: Answer, source: string): unknown {
  if (source === 'status') return answer.status;
  if (source === 'body') return answer.body;
  if (source.startsWith('body.')) return pathValue(answer.body, source.slice('body.'.length));
  if (source.startsWith('headers.')) return answer.headers.get(source.slice('headers.'.length)) ?? undefined;
  throw new Error(`cannot capture ${source}: use body, body.<path>, headers.<name> or status`);
}
