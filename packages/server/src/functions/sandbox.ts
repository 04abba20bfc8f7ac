import { FUNCTION_LIMITS, type FunctionFailure } from '@dataplatform/contract';
import type ivm from 'isolated-vm';
import { lazy } from '../lazy.js';
import { BOOTSTRAP } from './bootstrap.js';

// Native, and only functions need it: loaded by the first deploy or run.
const isolatedVm = lazy(async () => (await import('isolated-vm')).default);

/** What a function is, for the sandbox: its code and limits, and a key that changes with every deploy. */
export interface SandboxProgram {
  /** `<function id>@<version>`: warm sandboxes are reused for the same key only. */
  key: string;
  code: string;
  timeoutMs: number;
  memoryMb: number;
  env: Record<string, string>;
}

/** The host side of `ctx.data`: an operation name and its JSON arguments in, a JSON envelope out. */
export type HostCall = (op: string, argsText: string) => Promise<string>;

/** How one run ended. */
export type RunOutcome =
  | { ok: true; resultText: string; logs: string[]; durationMs: number }
  | {
      ok: false;
      failure: FunctionFailure;
      error: { message: string; stack: string | null };
      logs: string[];
      durationMs: number;
    };

/** A compiled function, ready to run: its isolate, the runner of the bootstrap and the module's default export. */
interface Warm {
  isolate: ivm.Isolate;
  runner: ivm.Reference;
  fn: ivm.Reference;
  /** Where the current runs' `ctx.data` calls and log lines go; set per run (runs of one key share the isolate). */
  calls: Map<number, { host: HostCall; logs: string[] }>;
  /** Set when the host disposed of the isolate (a run's time ran out), as opposed to isolated-vm (its heap did). */
  stoppedByHost: boolean;
  /** Runs in the isolate now. */
  running: number;
  /** Set when a newer version replaced it: disposed of once its last run ends. */
  retired: boolean;
}

/** A module `check` loaded: kept as the warm isolate of the version stored, or disposed of (what is not kept). */
export interface CheckedModule {
  /** Keeps the isolate for the runs of `key` (`<function id>@<version>`), retiring the function's other versions. */
  keep(key: string): void;
  /** Disposes of the isolate unless it was kept. */
  dispose(): void;
}

/** A module the sandbox refused to load: a syntax error, an import, a throw at the top level, no default export. */
export class ModuleError extends Error {}

const NO_IMPORTS = 'Functions cannot import modules: everything they reach is in `ctx`';

/**
 * Runs functions in V8 isolates (isolated-vm): each function version gets its own isolate with its own heap limit,
 * so no run can reach the host's objects, files, process or network, nor another function's state. Code runs on
 * isolated-vm's threads, never on the event loop, so a function that loops forever stalls nothing else: when its
 * time is up the host disposes of its isolate, which stops it. An isolate is kept warm for the next run of the same
 * version, from the deploy's own check on; a timeout or an exhausted heap drops it, and a newer version or the
 * function's deletion retires it once its runs in flight end.
 */
export class Sandbox {
  private readonly warm = new Map<string, Promise<Warm>>();
  /** The settled entries of `warm`, so that a drop can tell whether the entry is still the isolate it stops. */
  private readonly loaded = new Map<string, Warm>();
  private nextRun = 0;

  /**
   * Compiles and loads the module in a new isolate; throws `ModuleError` when it could not be run. The isolate is
   * the one the version's first run will use once the caller keeps it, so a run after a deploy starts warm.
   */
  async check(program: Omit<SandboxProgram, 'key'>): Promise<CheckedModule> {
    const warm = await this.load({ ...program, key: 'check' });
    let settled = false;
    return {
      keep: (key) => {
        if (settled) return;
        settled = true;
        this.keep(key, warm);
      },
      dispose: () => {
        if (settled) return;
        settled = true;
        warm.isolate.dispose();
      },
    };
  }

  /**
   * Forgets the warm isolates of the function `functionId` (all its versions, or all but `except`): each is
   * disposed of when its last run in flight ends, so no run fails for it.
   */
  retire(functionId: string, except?: string): void {
    for (const [key, warm] of this.loaded) {
      if (key === except || !key.startsWith(`${functionId}@`)) continue;
      this.warm.delete(key);
      this.loaded.delete(key);
      warm.retired = true;
      if (warm.running === 0 && !warm.isolate.isDisposed) warm.isolate.dispose();
    }
  }

  /** Runs the function once with `input` (JSON text); `host` serves its `ctx.data` calls. */
  async run(program: SandboxProgram, inputText: string, host: HostCall): Promise<RunOutcome> {
    const started = performance.now();
    const logs: string[] = [];
    const elapsed = () => Math.round((performance.now() - started) * 100) / 100;
    let warm: Warm;
    try {
      warm = await this.warmFor(program);
      // A deploy may have retired it, idle, while this run waited for it: the version gets a new one.
      if (warm.retired && warm.isolate.isDisposed) warm = await this.warmFor(program);
    } catch (error) {
      return { ok: false, failure: 'error', error: errorOf(error), logs, durationMs: elapsed() };
    }
    const runId = this.nextRun++;
    warm.calls.set(runId, { host, logs });
    warm.running += 1;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      warm.stoppedByHost = true;
      this.drop(program.key, warm);
    }, program.timeoutMs);
    try {
      const answer = (await warm.runner.apply(
        undefined,
        [warm.fn.derefInto(), inputText, JSON.stringify(program.env), runId],
        { result: { promise: true } },
      )) as string;
      const parsed = JSON.parse(answer) as
        | { ok: true; result: string }
        | { ok: false; message: string; stack: string | null };
      if (parsed.ok) return { ok: true, resultText: parsed.result, logs, durationMs: elapsed() };
      return {
        ok: false,
        failure: 'error',
        error: { message: parsed.message, stack: parsed.stack },
        logs,
        durationMs: elapsed(),
      };
    } catch (error) {
      // isolated-vm disposes of an isolate whose heap passed its limit by itself; the host only on a timeout, which
      // also ends the other runs of that version in flight (they fail as errors, not as timeouts of their own).
      const failure: FunctionFailure = timedOut
        ? 'timeout'
        : warm.stoppedByHost
          ? 'error'
          : warm.isolate.isDisposed || /memory limit/i.test(errorOf(error).message)
            ? 'memory'
            : 'error';
      this.drop(program.key, warm);
      const reported =
        failure === 'error' && warm.stoppedByHost
          ? { message: 'Stopped: another run of this version ran out of time', stack: null }
          : errorOf(error);
      return { ok: false, failure, error: reported, logs, durationMs: elapsed() };
    } finally {
      clearTimeout(timer);
      warm.calls.delete(runId);
      warm.running -= 1;
      if (warm.retired && warm.running === 0 && !warm.isolate.isDisposed) warm.isolate.dispose();
    }
  }

  /** Disposes of every warm isolate. */
  close(): void {
    for (const [key, pending] of this.warm) {
      this.warm.delete(key);
      this.loaded.delete(key);
      pending.then((w) => w.isolate.isDisposed || w.isolate.dispose()).catch(() => {});
    }
  }

  /** Makes `warm` the isolate of `key`, unless a run already loaded one, and retires the function's other versions. */
  private keep(key: string, warm: Warm): void {
    this.retire(key.slice(0, key.lastIndexOf('@')), key);
    if (this.warm.has(key)) {
      warm.isolate.dispose();
      return;
    }
    this.warm.set(key, Promise.resolve(warm));
    this.loaded.set(key, warm);
  }

  private warmFor(program: SandboxProgram): Promise<Warm> {
    let pending = this.warm.get(program.key);
    if (!pending) {
      const loading = this.load(program);
      pending = loading;
      this.warm.set(program.key, loading);
      loading.then(
        (warm) => {
          if (this.warm.get(program.key) === loading) this.loaded.set(program.key, warm);
        },
        // A module that fails to load is not kept: the next run tries again (and fails the same way).
        () => {
          if (this.warm.get(program.key) === loading) this.warm.delete(program.key);
        },
      );
    }
    return pending;
  }

  /** Forgets the warm isolate of `key` when it is this one (a newer one may have taken its place) and disposes of it. */
  private drop(key: string, warm: Warm): void {
    if (this.loaded.get(key) === warm) {
      this.warm.delete(key);
      this.loaded.delete(key);
    }
    if (!warm.isolate.isDisposed) warm.isolate.dispose();
  }

  private async load(program: SandboxProgram): Promise<Warm> {
    const lib = await isolatedVm();
    const isolate = new lib.Isolate({ memoryLimit: program.memoryMb });
    const calls: Warm['calls'] = new Map();
    try {
      const context = await isolate.createContext();
      const runner = await this.bootstrap(lib, context, calls);
      const module = await isolate.compileModule(program.code, { filename: 'function.js' }).catch((error) => {
        throw new ModuleError(`The code does not compile: ${errorOf(error).message}`);
      });
      try {
        // The resolver may be called before instantiate returns its promise: a sync throw is caught here too.
        await module.instantiate(context, () => {
          throw new Error(NO_IMPORTS);
        });
      } catch (error) {
        throw new ModuleError(errorOf(error).message);
      }
      await module.evaluate({ timeout: program.timeoutMs }).catch((error) => {
        throw new ModuleError(`The module failed while loading: ${errorOf(error).message}`);
      });
      const fn = await module.namespace.get('default', { reference: true });
      if (fn.typeof !== 'function')
        throw new ModuleError(
          'The module must export a function: `export default async function (input, ctx) {…}`',
        );
      return { isolate, runner, fn, calls, stoppedByHost: false, running: 0, retired: false };
    } catch (error) {
      if (!isolate.isDisposed) isolate.dispose();
      throw error;
    }
  }

  /** Runs the bootstrap in the context: its runner takes a run id, by which host calls find their run. */
  private async bootstrap(
    lib: typeof ivm,
    context: ivm.Context,
    calls: Warm['calls'],
  ): Promise<ivm.Reference> {
    const host = new lib.Reference(async (op: string, argsText: string, runId: number) => {
      const run = calls.get(runId);
      if (!run)
        return JSON.stringify({ ok: false, code: 'internal_error', status: 500, message: 'The run ended' });
      return run.host(op, argsText);
    });
    const log = new lib.Reference((line: string, runId: number) => {
      const run = calls.get(runId);
      if (run && run.logs.length < FUNCTION_LIMITS.maxLogLines) run.logs.push(String(line));
    });
    // References cross as they are: the bootstrap calls them (`arguments: { reference }` would wrap them again).
    return context.evalClosure(BOOTSTRAP, [host, log], { result: { reference: true } });
  }
}

function errorOf(error: unknown): { message: string; stack: string | null } {
  if (error instanceof Error) return { message: error.message, stack: error.stack ?? null };
  return { message: String(error), stack: null };
}
