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
    // #37 item 4: characters a URL never holds unencoded (RFC 3986), which reach every output otherwise;
    // the WHATWG parser drops tabs and newlines anywhere and accepts the rest in a path
    { name: 'ESC in the path', code: withServer('"https://leader.example.com:6443/a\\e[31m"'), diagnostics: [{ line: 5, column: 13 }] },
    {
      name: 'a newline that starts a workflow command',
      code: withServer('"https://leader.example.com:6443/\\n::error::x"'),
      diagnostics: [{ line: 5, column: 13 }],
    },
    { name: 'CR in the host', code: withServer('"https://lead\\rer.example.com:6443"'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'a tab in the host', code: withServer('"https://lead\\ter.example.com:6443"'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'BEL', code: withServer('"https://leader.example.com:6443/\\a"'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'a bidi override', code: withServer('"https://leader.example.com:6443/\\u202Etxt.exe"'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'a zero-width space', code: withServer('"https://leader.example.com:6443/\\u200B"'), diagnostics: [{ line: 5, column: 13 }] },
    { name: 'a space and shell syntax in the path', code: withServer('"https://leader.example.com:6443/$(id) `id`"'), diagnostics: [{ line: 5, column: 13 }] },
  ],
});
