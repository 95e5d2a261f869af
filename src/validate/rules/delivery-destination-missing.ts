import { enginesOf } from '../../delivery/registry';
import type { ModelRule } from '../rule';

export const deliveryDestinationMissing: ModelRule = {
  id: 'delivery-destination-missing',
  severity: 'error',
  description: 'an engine is configured and a cluster has no destination for it (Argo CD, or a hub Flux)',
  validate({ definition, clusters, report }) {
    for (const e of enginesOf(definition)) for (const finding of e.rules.missingDestinations(definition, clusters)) report(finding);
  },
};
