import { LATEST } from './releases';
import { source } from './source';

type Field = 'podCIDRs' | 'serviceCIDR';

const written = (field: Field, cidr: string) => (field === 'podCIDRs' ? `podCIDRs: [${cidr}]` : `serviceCIDR: ${cidr}`);
// the CIDR's column on a cluster's line: six spaces of indentation, then the key (and `[`)
const column = (field: Field) => 6 + written(field, '').length + (field === 'podCIDRs' ? 0 : 1);

/**
 * #49 item 15: the boundary rows of an overlap rule (an overlap is a shared address, first <=
 * last), for cluster a's field against cluster b's: adjacent ranges share no address; a range and
 * the /32 of its last address, and two equal /32s, share exactly one. `network` is the line the
 * rule needs under spec, if any.
 */
export function overlapBoundary(a: Field, b: Field, network?: string) {
  const code = (x: string, y: string) =>
    source`
      spec:
        antrea: { version: ${LATEST} }${network ? `\n        ${network}` : ''}
        leader: { clusterID: a, server: https://a:6443 }
        clusters:
          - clusterID: a
            ${written(a, x)}
          - clusterID: b
            ${written(b, y)}`;
  const first = network ? 7 : 6;
  const diagnostics = [{ line: first + 2, column: column(b), related: [{ line: first, column: column(a) }] }];
  return {
    valid: [
      { name: 'adjacent: a /30 and the /32 of the next address', code: code('10.96.0.4/30', '10.96.0.8/32') },
      { name: 'adjacent: two /32s one apart', code: code('10.96.0.7/32', '10.96.0.8/32') },
    ],
    invalid: [
      { name: 'sharing exactly one address: equal /32s', code: code('10.96.0.7/32', '10.96.0.7/32'), diagnostics },
      { name: 'sharing exactly one address: a /30 and the /32 of its last address', code: code('10.96.0.4/30', '10.96.0.7/32'), diagnostics },
    ],
  };
}
