import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './errors.js';

/** The state of a load: its value once there, the error text if it failed, and a way to load again. */
export interface Loaded<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload(): Promise<void>;
}

/**
 * Runs `load` now and whenever `deps` change; an answer that arrives after a newer load started is dropped, so
 * quick paging never shows an older page over a newer one.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const run = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const value = await load();
      if (mine !== generation.current) return;
      setData(value);
      setError(null);
    } catch (failure) {
      if (mine !== generation.current) return;
      setError(describeError(failure));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, deps);
  useEffect(() => {
    void run();
  }, [run]);
  return { data, error, loading, reload: run };
}

/**
 * Wraps a user action (a button's work): while it runs `busy` is true; its failure becomes `error`, its success
 * message `notice`, both announced by the page's status region.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const run = useCallback(async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const message = await work();
      if (typeof message === 'string') setNotice(message);
      return true;
    } catch (failure) {
      setError(describeError(failure));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, notice, run, setNotice, setError };
}
