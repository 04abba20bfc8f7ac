import { z } from 'zod';
import { FUNCTION_LIMITS } from '../semantics/functions.js';
import { fromQuery, listEnvelope, Timestamp } from './common.js';
import { COLLECTION_NAME_PATTERN } from './document.js';

/** A function's name: the collection-name rule, so it is safe in `/api/v1/functions/{name}/invoke`. */
export const FunctionName = z
  .string()
  .regex(COLLECTION_NAME_PATTERN)
  .meta({ description: 'A letter, then up to 63 letters, digits, `_` or `-`', example: 'send-welcome' });

/** The module's source text. */
const FunctionCode = z.string().min(1).max(FUNCTION_LIMITS.codeChars).meta({
  description:
    'A JavaScript module whose default export is `async function (input, ctx)`; at most 1 MiB. A syntax error is refused at deploy (400 `validation_error`).',
  example: 'export default async function (input, ctx) {\n  ctx.log("hello");\n  return { ok: true };\n}',
});

const TimeoutMs = z
  .number()
  .int()
  .min(1)
  .max(FUNCTION_LIMITS.maxTimeoutMs)
  .meta({
    description: `Wall-clock limit of one run in milliseconds (default ${FUNCTION_LIMITS.defaultTimeoutMs})`,
  });

const MemoryMb = z
  .number()
  .int()
  .min(FUNCTION_LIMITS.minMemoryMb)
  .max(FUNCTION_LIMITS.maxMemoryMb)
  .meta({ description: `Heap limit of the sandbox in MiB (default ${FUNCTION_LIMITS.defaultMemoryMb})` });

/** Environment values the function reads as `ctx.env`. */
const FunctionEnv = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/), z.string().max(4096))
  .refine((env) => Object.keys(env).length <= FUNCTION_LIMITS.maxEnvEntries, {
    message: `At most ${FUNCTION_LIMITS.maxEnvEntries} environment values`,
  })
  .meta({ description: 'Names and string values given to the function as `ctx.env`' });

/** Request to create a function (its first version). */
export const FunctionCreate = z
  .strictObject({
    name: FunctionName,
    code: FunctionCode,
    timeoutMs: TimeoutMs.optional(),
    memoryMb: MemoryMb.optional(),
    env: FunctionEnv.optional(),
    clusterId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .meta({ description: "The cluster the function acts on; the caller's default cluster when left out" }),
  })
  .meta({ id: 'FunctionCreate', description: 'A new function.' });

/** Request to deploy a new version: new code, and limits or env when given (the others stay). */
export const FunctionDeploy = z
  .strictObject({
    code: FunctionCode,
    timeoutMs: TimeoutMs.optional(),
    memoryMb: MemoryMb.optional(),
    env: FunctionEnv.optional(),
  })
  .meta({ id: 'FunctionDeploy', description: 'A new version of a function.' });

/** A function, without its code. */
export const FunctionRecord = z
  .object({
    _id: z.string(),
    name: FunctionName,
    clusterId: z.string(),
    version: z.number().int().min(1).meta({ description: '1 at creation, one more at each deploy' }),
    timeoutMs: z.number().int(),
    memoryMb: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Function', description: 'A deployed function.' });

/** A function with its code and env, as `GET /api/functions/{id}` answers. */
export const FunctionDetail = FunctionRecord.extend({
  code: z.string(),
  env: z.record(z.string(), z.string()),
}).meta({ id: 'FunctionDetail', description: 'A deployed function with its current code and env.' });

/** One page of functions. */
export const FunctionList = listEnvelope(FunctionRecord, 'FunctionList');

/** Query of the function list. */
export const FunctionListQuery = z.object({
  clusterId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({ description: 'Only the functions of this cluster' }),
  limit: fromQuery(z.coerce.number().int().min(1).max(1000).default(50)),
  skip: fromQuery(z.coerce.number().int().min(0).default(0)),
});

/** Path of a function route. */
export const FunctionParams = z.object({ id: z.string().min(1).max(128) });

/** Path of the data-plane invoke route. */
export const FunctionNameParams = z.object({ name: FunctionName });

/** What any JSON body is as a function's input. */
export const FunctionInput = z.unknown().meta({
  id: 'FunctionInput',
  description: "Any JSON value; the function's `input`",
});

/** The answer of a successful invocation. */
export const InvokeResult = z
  .object({
    result: z.unknown().meta({ description: 'What the function returned, as JSON' }),
    logs: z.array(z.string()).meta({ description: 'The lines `ctx.log` recorded, in order' }),
    durationMs: z.number().min(0),
  })
  .meta({ id: 'InvokeResult', description: 'The result of one run of a function.' });

/** How a run was started. */
export const INVOCATION_TRIGGERS = ['http', 'document', 'schedule', 'manual'] as const;
/** How a run ended. */
export const INVOCATION_STATUSES = ['ok', 'error', 'timeout', 'memory'] as const;

/** One recorded run of a function. */
export const Invocation = z
  .object({
    _id: z.string(),
    functionId: z.string(),
    version: z.number().int().min(1),
    status: z.enum(INVOCATION_STATUSES),
    trigger: z.enum(INVOCATION_TRIGGERS),
    durationMs: z.number().min(0),
    startedAt: Timestamp,
    logs: z.array(z.string()),
    error: z
      .object({ message: z.string(), stack: z.string().nullable() })
      .nullable()
      .meta({ description: 'Why the run failed; null when it succeeded' }),
  })
  .meta({ id: 'Invocation', description: 'One run of a function, with its logs.' });

/** One page of invocations, newest first. */
export const InvocationList = listEnvelope(Invocation, 'InvocationList');

/** Query of the invocation list. */
export const InvocationListQuery = z.object({
  limit: fromQuery(z.coerce.number().int().min(1).max(1000).default(50)),
  skip: fromQuery(z.coerce.number().int().min(0).default(0)),
});

/** A request to create a function. */
export type FunctionCreate = z.input<typeof FunctionCreate>;
/** A request to deploy a new version. */
export type FunctionDeploy = z.input<typeof FunctionDeploy>;
/** A function, without its code. */
export type FunctionRecord = z.infer<typeof FunctionRecord>;
/** A function with its code. */
export type FunctionDetail = z.infer<typeof FunctionDetail>;
/** A page of functions. */
export type FunctionList = z.infer<typeof FunctionList>;
/** The result of an invocation. */
export type InvokeResult = z.infer<typeof InvokeResult>;
/** One recorded run. */
export type Invocation = z.infer<typeof Invocation>;
/** How a run ended. */
export type InvocationStatus = (typeof INVOCATION_STATUSES)[number];
/** How a run was started. */
export type InvocationTrigger = (typeof INVOCATION_TRIGGERS)[number];
