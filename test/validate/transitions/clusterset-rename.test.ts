import { clustersetRename } from '../../../src/validate/transitions/clusterset-rename';
import { source } from '../../helpers/source';
import { transitionTester } from '../../helpers/transition-tester';
import { LATEST } from '../../helpers/releases';

const spec = source`
  spec:
    antrea: { version: ${LATEST} }
    leader: { clusterID: a, server: https://a:6443 }
    clusters: [{ clusterID: a, member: false }, { clusterID: b }]
`;

transitionTester(clustersetRename, [
  { name: 'the same name', before: spec, after: spec },
  { name: 'renamed', before: spec, after: spec, names: { before: 'old', after: 'new' }, diagnostics: [{ line: 0, column: 9 }] },
]);
