import { lazy } from '../../lazy.js';
import type { Storage } from '../../storage/types.js';
import type { Predictor } from './predict.js';

// The learning libraries (ml-matrix and the algorithms on it, a tenth of the server's code) load with the first
// model a prediction needs, not at start.
const loadPredict = lazy(() => import('./predict.js'));

/** Loaded models kept at most; the least recently used goes first. */
const KEPT = 32;

/** Ready models loaded once and kept, so an online prediction does not parse its artifact again. */
export class Predictors {
  private readonly loaded = new Map<string, Predictor>();

  constructor(private readonly storage: Storage) {}

  /** The predictor of a ready model; null when the model is gone or not trained. */
  async of(modelId: string): Promise<Predictor | null> {
    const kept = this.loaded.get(modelId);
    if (kept) {
      this.loaded.delete(modelId);
      this.loaded.set(modelId, kept);
      return kept;
    }
    const stored = await this.storage.intelligence.findModel(modelId);
    if (stored?.model.status !== 'ready' || !stored.artifact) return null;
    const predictor = (await loadPredict()).predictorOf(stored.artifact);
    this.loaded.set(modelId, predictor);
    if (this.loaded.size > KEPT) this.loaded.delete(this.loaded.keys().next().value!);
    return predictor;
  }

  forget(modelId: string): void {
    this.loaded.delete(modelId);
  }
}
