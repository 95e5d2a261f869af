import { leaderServer } from '../../../src/validate/rules/leader-server';
import { ruleTester } from '../../helpers/rule-tester';
import { source } from '../../helpers/source';
import { LATEST } from '../../helpers/releases';

const withServer = (server: string) => source`
  spec:
    antrea: { version: ${LATEST} }
    leader:
      clusterID: a
      server: ${server}
    clusters: [{ clusterID: a }]`;

ruleTester(leaderServer, {
  valid: [
    withServer('https://192.168.150.101:6443'),
    withServer('https://west-cluster.eks.example.com:443'),
    withServer('https://leader.example.com'),
    withServer('"https://[fd00::1]:6443"'),
  ],
  invalid: [
    { name: 'http', code: withServer('http://192.168.150.101:6443'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'no scheme', code: withServer('192.168.150.101:6443'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'a host name only', code: withServer('leader'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'no host', code: withServer('https:///api'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'scheme without slashes', code: withServer('https:leader:6443'), diagnostics: [{ line: 5, column: 13 }] },
    // #12 item 11: what the members' client and the leader's certificate cannot accept
    { name: 'credentials in the URL', code: withServer('https://admin:pw@leader.example.com:6443'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'a query', code: withServer('https://leader.example.com:6443?timeout=5s'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'a fragment', code: withServer('https://leader.example.com:6443#x'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'a host that is no DNS name (underscore)', code: withServer('https://my_leader:6443'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'a wildcard host', code: withServer('"https://*.example.com:6443"'), diagnostics: [{ line: 5, column: 13 }] },
  ],
});
