import { FUNCTION_LIMITS } from '@dataplatform/contract';

/**
 * The code that runs first in every sandbox context, before the function's module: it builds `ctx` and returns the
 * runner the host calls. Its two arguments are host references: `$0` carries `ctx.data` calls to the host and back,
 * `$1` takes log lines; both are told the run they belong to, as runs of one version share its isolate. They live
 * only in this closure, so the function's code never holds a host reference. Everything crosses the boundary as
 * JSON text, so no object of one side is ever reachable from the other.
 */
export const BOOTSTRAP = String.raw`
'use strict';
const host = $0;
const logSink = $1;
const maxLines = ${FUNCTION_LIMITS.maxLogLines};
const maxLineChars = ${FUNCTION_LIMITS.maxLogLineChars};
const stringify = JSON.stringify;
const parse = JSON.parse;

function hostError(failure) {
  const error = new Error(failure.message);
  error.code = failure.code;
  error.status = failure.status;
  if (failure.details !== undefined) error.details = failure.details;
  return error;
}

async function call(runId, op, args) {
  const text = await host.apply(undefined, [op, stringify(args), runId], { result: { promise: true } });
  const answer = parse(text);
  if (!answer.ok) throw hostError(answer);
  return answer.value;
}

function describe(value) {
  if (typeof value === 'string') return value;
  try {
    const text = stringify(value);
    return text === undefined ? String(value) : text;
  } catch {
    return String(value);
  }
}

function freezeAll(object) {
  for (const key of Object.keys(object)) Object.freeze(object[key]);
  return Object.freeze(object);
}

return async function run(fn, inputText, envText, runId) {
  let lines = 0;
  const data = (op) => (...args) => call(runId, op, args);
  const ctx = freezeAll({
    data: {
      get: data('get'),
      list: data('list'),
      create: data('create'),
      update: data('update'),
      replace: data('replace'),
      delete: data('delete'),
      sql: data('sql'),
    },
    log: (...args) => {
      if (lines >= maxLines) return;
      lines += 1;
      logSink.applyIgnored(undefined, [args.map(describe).join(' ').slice(0, maxLineChars), runId]);
    },
    env: parse(envText),
  });
  try {
    if (typeof fn !== 'function') throw new TypeError('The module has no default export function');
    const result = await fn(parse(inputText), ctx);
    const text = result === undefined ? 'null' : stringify(result);
    return stringify({ ok: true, result: text === undefined ? 'null' : text });
  } catch (error) {
    let message = 'Unknown error';
    let stack = null;
    try {
      message = error instanceof Error ? String(error.message) : describe(error);
      stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : null;
    } catch {}
    return stringify({ ok: false, message, stack });
  }
};
`;
