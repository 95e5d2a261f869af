import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every definition the tests compile: the examples and the compile fixtures. */
export const allDefinitions = (): string[] => [
  ...readdirSync('clustersets')
    .filter((f) => /\.(ya?ml|ts)$/.test(f))
    .sort()
    .map((f) => join('clustersets', f)),
  ...readdirSync('test/fixtures/compile')
    .sort()
    .map((c) => join('test/fixtures/compile', c, 'definition.yaml')),
];
