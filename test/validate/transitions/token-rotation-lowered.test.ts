import { tokenRotationLowered } from '../../../src/validate/transitions/token-rotation-lowered';
import { source } from '../../helpers/source';
import { transitionTester } from '../../helpers/transition-tester';
import { LATEST } from '../../helpers/releases';

const spec = (token: string) => source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters:
      - { clusterID: a }
      - { clusterID: b, tokenSecret: ${token} }
`;

transitionTester(tokenRotationLowered, [
  { name: 'raised by one', before: spec('{ source: manual }'), after: spec('{ source: manual, rotation: 1 }') },
  { name: 'kept', before: spec('{ source: manual, rotation: 2 }'), after: spec('{ source: manual, rotation: 2 }') },
  { name: 'raised by more than one', before: spec('{ source: manual, rotation: 1 }'), after: spec('{ source: manual, rotation: 5 }') },
  { name: 'absent and 0 are the same', before: spec('{ source: manual }'), after: spec('{ source: manual, rotation: 0 }') },
  {
    name: 'lowered by one',
    before: spec('{ source: manual, rotation: 2 }'),
    after: spec('{ source: manual, rotation: 1 }'),
    diagnostics: [{ line: 6, column: 64 }],
  },
  {
    name: 'lowered by leaving it out: at the token source',
    before: spec('{ source: manual, rotation: 1 }'),
    after: spec('{ source: manual }'),
    diagnostics: [{ line: 6, column: 36 }],
  },
]);
