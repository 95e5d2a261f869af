import { scanDefinitionTextSync, scanOutputFilesSync } from '../secrets/scan-secrets-sync';
import { pipeline, type Effect, type PipelineInput, type PipelineResult, type Sink } from './pipeline';
import * as stages from './stages';

/**
 * Runs the pipeline without waiting, for a caller that cannot (a cdk8s construct): secretlint runs
 * in a worker thread this thread blocks on (scan-secrets-sync.ts). Its inputs are sources already
 * loaded: loading TypeScript definitions is asynchronous.
 */
export function runPipelineSync<R>(inputs: readonly PipelineInput[], sink?: Sink<R>): PipelineResult<R> {
  const run = pipeline(inputs, sink);
  let step = run.next();
  while (!step.done) {
    let value: unknown;
    try {
      value = perform(step.value);
    } catch (err) {
      step = run.throw(err);
      continue;
    }
    step = run.next(value);
  }
  return step.value;
}

function perform(effect: Effect): unknown {
  switch (effect.kind) {
    case 'load':
      throw new Error('the synchronous pipeline takes loaded sources, not files');
    case 'scan-definition':
      scanDefinitionTextSync(effect.file, effect.text, effect.diagnostics);
      return undefined;
    case 'scan-output':
      scanOutputFilesSync(effect.file, effect.files, effect.diagnostics);
      return undefined;
    case 'stages':
      return stages;
  }
}
