import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { withExamples } from '../command.js';
import { newDatasetsCreateCommand, newDatasetsListCommand } from './datasets.js';
import { newModelsListCommand, newModelsTrainCommand } from './models.js';
import { newPredictCommand } from './predict.js';

/** `dp intelligence …`: datasets, models and predictions. */
export function newIntelligenceCommand(f: Factory): Command {
  const datasets = withExamples(
    new Command('datasets')
      .description('Snapshot collections into datasets and list them')
      .addCommand(newDatasetsListCommand(f), { isDefault: true })
      .addCommand(newDatasetsCreateCommand(f)),
    ['dp intelligence datasets', 'dp intelligence datasets create iris -c iris'],
  );
  const models = withExamples(
    new Command('models')
      .description('Train models on datasets and list them')
      .addCommand(newModelsListCommand(f), { isDefault: true })
      .addCommand(newModelsTrainCommand(f)),
    [
      'dp intelligence models',
      'dp intelligence models train species -d ds_… -t classification --target species',
    ],
  );
  const command = new Command('intelligence')
    .description('Datasets, models and predictions')
    .addCommand(datasets)
    .addCommand(models)
    .addCommand(newPredictCommand(f));
  return withExamples(command, [
    'dp intelligence datasets create iris -c iris',
    'dp intelligence models train species -d ds_… -t classification --target species',
    `dp intelligence predict mdl_… '{"petal_length": 1.4}'`,
  ]);
}
