import type { Storage } from '../../storage/types.js';
import { type Predictor, predictorOf } from './predict.js';

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
    const predictor = predictorOf(stored.artifact);
    this.loaded.set(modelId, predictor);
    if (this.loaded.size > KEPT) this.loaded.delete(this.loaded.keys().next().value!);
    return predictor;
  }

  forget(modelId: string): void {
    this.loaded.delete(modelId);
  }
}
