import { z } from 'zod';

/** Where a case can run: the mock API (`@dataplatform/mocks`) or the reference server. */
export const TARGETS = ['mocks', 'server'] as const;

/** A target of the suite. */
export type Target = (typeof TARGETS)[number];

const Name = z
  .string()
  .regex(/^[a-z][a-zA-Z0-9]*$/)
  .meta({ description: 'A variable name: a lowercase letter, then letters and digits' });

/**
 * What a case expects of a value. Plain JSON compares for equality, except that an object lists only the fields it
 * checks and `"{{name.path}}"` stands for a captured value; objects whose keys start with `$` are operators.
 */
const Matcher = z.unknown().meta({
  id: 'Matcher',
  description:
    'JSON to compare with. Objects match when each listed field matches (others may be there); arrays match item by item and in length; a string that is exactly `{{var.path}}` is the captured value; other strings are interpolated. Operators: `{"$type": "string"|"number"|"integer"|"boolean"|"object"|"array"|"null"}`, `{"$any": true}` (present), `{"$absent": true}` (not present), `{"$regex": "…"}` (a string matching it), `{"$length": n}` (of a string or array), `{"$contains": matcher}` (an array with an item that matches); operators in one object must all hold.',
});

const Account = z.strictObject({ account: Name }).meta({
  description:
    'Signs a new user up (`POST /api/auth/signup`, e-mail `<name>-{{$unique}}@example.com`, password `correct horse battery staple`, name `<name>`) and keeps the answer, plus `email` and `password`, as variable `<name>`.',
});

const Key = z
  .strictObject({
    key: Name,
    owner: Name.meta({ description: 'An account of the setup' }),
    scopes: z.array(z.string()).min(1),
  })
  .meta({
    description:
      "Creates an API key of `owner` (`POST /api/keys` with the owner's session, name `<name>`) and keeps the answer (`{ key, secret }`) as variable `<name>`.",
  });

/** A request of a step. */
export const Request = z
  .strictObject({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']),
    path: z
      .string()
      .startsWith('/')
      .meta({ description: 'Path and query, interpolated; sent as written (encode what needs encoding)' }),
    auth: Name.optional().meta({
      description:
        'A setup name: an account sends `Authorization: Bearer <its token>`, a key `X-API-Key: <its secret>`. Left out: no credential.',
    }),
    headers: z.record(z.string(), z.string()).optional().meta({ description: 'Extra headers, interpolated' }),
    json: z.unknown().optional().meta({
      description: 'A body sent as JSON with `Content-Type: application/json`; its strings are interpolated',
    }),
    body: z.string().optional().meta({
      description: 'A body sent as this text, interpolated; any Content-Type comes from `headers`',
    }),
    repeatBody: z.int().min(1).optional().meta({
      description: 'Sends `body` this many times over, for bodies too large to write out',
    }),
    stream: z.boolean().optional().meta({
      description: 'The answer is a stream that does not end: read status and headers, then close it',
    }),
  })
  .meta({ id: 'Request' });

/** What a step expects of its answer. */
export const Expect = z
  .strictObject({
    status: z.int().min(100).max(599),
    code: z.string().optional().meta({
      description:
        'The error code. Every answer of 400 and up must be `{ error, code, requestId }` (plus `details`), with `requestId` equal to the `X-Request-Id` header',
    }),
    headers: z.record(z.string(), Matcher).optional().meta({
      description: 'Header names (any case) and matchers of their values; `{"$absent": true}` for none',
    }),
    body: Matcher.optional().meta({ description: 'A matcher of the answer parsed as JSON' }),
  })
  .meta({ id: 'Expect' });

/** One request of a case and what its answer must be. */
export const Step = z
  .strictObject({
    title: z.string().optional(),
    request: Request,
    expect: Expect,
    capture: z.record(Name, z.string()).optional().meta({
      description:
        'Variables to keep for later steps: `body`, `body.<path>` (dotted, with array indices), `headers.<name>` or `status`',
    }),
  })
  .meta({ id: 'Step' });

/** One conformance case: what it needs, then its requests in order. */
export const Case = z
  .strictObject({
    $schema: z.string().optional(),
    title: z.string().min(1).meta({ description: 'What a caller sees, in one sentence' }),
    description: z.string().optional(),
    skip: z
      .partialRecord(z.enum(TARGETS), z.string().min(1))
      .optional()
      .meta({ description: 'Targets the case does not apply to, each with the reason' }),
    setup: z
      .array(z.union([Account, Key]))
      .optional()
      .meta({
        description: 'Made in order through the public API before the steps, fresh for each run',
      }),
    steps: z.array(Step).min(1),
  })
  .meta({
    id: 'ConformanceCase',
    title: 'A conformance case of the dataplatform API',
    description:
      'Requests in order and what each answer must be. Variables: setup names, captures, and `{{$unique}}` (a token of lowercase letters and digits, new for each run of a case).',
  });

/** A parsed case. */
export type Case = z.infer<typeof Case>;
/** A parsed step. */
export type Step = z.infer<typeof Step>;
/** What a step expects. */
export type Expect = z.infer<typeof Expect>;

/** The JSON Schema of the case format, as committed at spec/conformance/case.schema.json. */
export function caseJsonSchema(): unknown {
  return z.toJSONSchema(Case, { target: 'draft-2020-12', io: 'input' });
}
