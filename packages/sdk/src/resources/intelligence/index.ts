import type { DataPlatform } from '../../client.js';
import { Datasets } from './datasets.js';
import { Models } from './models.js';
import { Predictions } from './predictions.js';

/** The intelligence engine: `client.intelligence.datasets`, `.models` and `.predictions`. */
export class Intelligence {
  readonly datasets: Datasets;
  readonly models: Models;
  readonly predictions: Predictions;

  constructor(client: DataPlatform) {
    this.datasets = new Datasets(client);
    this.models = new Models(client);
    this.predictions = new Predictions(client);
  }
}
