import { PLAN_MARKER } from '../plan/render-plan';
import { LATEST_RELEASE } from '../antrea/releases';
import { DRIFT_WORKFLOW_PATH, driftWorkflow } from './drift-workflow';
import { CHECKOUT, SETUP_NODE } from './action-pins';

/** One file of a new GitOps repository. */
export interface ScaffoldFile {
  /** relative to the repository, `/`-separated */
  readonly path: string;
  readonly content: string;
}

export interface ScaffoldOptions {
  /** the package name of the new repository (npm rules: lower case, no spaces) */
  readonly name: string;
  /** the antrea-clusterset version the repository depends on */
  readonly version: string;
}

/**
 * The files `clusterset init` writes: a GitOps repository that needs nothing but npm. The
 * starter definition validates and synthesizes as it is (a test holds it to that).
 */
export function scaffoldRepository(options: ScaffoldOptions): ScaffoldFile[] {
  return [
    { path: 'package.json', content: `${JSON.stringify(packageJson(options), null, 2)}\n` },
    { path: 'clustersets/prod.yaml', content: STARTER_DEFINITION },
    { path: 'cdk8s.yaml', content: CDK8S_YAML },
    // .dist.clusterset/: synth's lock, next tree and spare beside dist/ (output/output-transaction.ts)
    { path: '.gitignore', content: 'node_modules/\n.clusterset-tmp-*/\n.dist.clusterset/\n' },
    { path: '.github/workflows/clusterset.yml', content: WORKFLOW },
    // the drift watch, for the starter definition's clusters (a test holds them equal)
    { path: DRIFT_WORKFLOW_PATH, content: driftWorkflow(['leader', 'east', 'west']) },
    // GitHub collapses generated files in pull-request diffs and leaves them out of language statistics
    { path: '.gitattributes', content: 'dist/** linguist-generated=true\n' },
  ];
}

/** The scripts a scaffolded package.json carries; `init` adds them to an existing one too. */
export const SCAFFOLD_SCRIPTS: Readonly<Record<string, string>> = {
  validate: 'clusterset validate',
  synth: 'clusterset synth',
  'synth:check': 'clusterset synth --check',
};

function packageJson({ name, version }: ScaffoldOptions) {
  return {
    name,
    version: '0.0.0',
    private: true,
    description: 'Antrea Multi-cluster ClusterSets, compiled into per-cluster bundles in dist/',
    scripts: SCAFFOLD_SCRIPTS,
    devDependencies: { 'antrea-clusterset': `^${version}` },
  };
}

/** npm's rules for a package name, applied to a folder name. */
export function packageNameFor(folder: string): string {
  const name = folder
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name.slice(0, 214) || 'clustersets';
}

const STARTER_DEFINITION = `# yaml-language-server: $schema=../node_modules/antrea-clusterset/schema/clusterset.schema.json
# A ClusterSet: a dedicated leader cluster and two member clusters. Replace the names, the
# leader's API server URL, the CIDRs and the Gateway Nodes with your own, then run
#   npx clusterset validate    (checks CIDR overlaps, IDs, tunnels, exports, ...)
#   npx clusterset synth       (writes one bundle per cluster into dist/)
# Every field and its default: node_modules/antrea-clusterset/docs/definition-format.md
apiVersion: antrea-clusterset/v1alpha1
kind: ClusterSetDefinition
metadata:
  name: prod                          # the ClusterSet ID, the same in every cluster
spec:
  antrea:
    # the Antrea release the bundles are built for
    version: ${LATEST_RELEASE.version}
  leader:
    clusterID: leader                 # the cluster that runs the leader controller
    server: https://leader.example.com:6443   # its API server, as the members reach it
  clusters:
    - clusterID: leader
      member: false                   # dedicated leader: it joins no ClusterSet as a member
    - clusterID: east
      serviceCIDR: 10.96.0.0/16       # Service CIDRs must not overlap across members
      gateways:
        - node: east-gateway-node     # a Node that carries cross-cluster traffic
        - node: east-standby-node     # a second candidate: Antrea fails over to it (gateway-ha)
    - clusterID: west
      serviceCIDR: 10.112.0.0/16
      gateways:
        - node: west-gateway-node
        - node: west-standby-node
  # services:                         # export a Service from members, e.g.
  #   - { name: nginx, namespace: web, exportFrom: "*" }
`;

const CDK8S_YAML = `# \`npx cdk8s synth\` runs the same compiler as \`npx clusterset synth\` (cdk8s passes CDK8S_OUTDIR).
# cdk8s empties the output folder before it starts; \`clusterset synth\` keeps dist/ on failure.
language: typescript
app: npx clusterset synth
output: dist
`;

/** The label a pull request carries to accept a destructive plan. */
export const DESTRUCTIVE_LABEL = 'clusterset: destructive ok';

// `plan` is used only where the installed version has it, so the workflow works before and after.
// GitHub grants permissions per job, not per step: the token reaches only the step given GH_TOKEN.
const WORKFLOW = `# Pull-request checks for the ClusterSet definitions in clustersets/: diagnostics as annotations
# on the changed lines, a check that the committed dist/ is up to date, and the plan of what the
# pull request changes in the fleet: annotations, the run's summary, and one pull-request comment
# updated on every push. A pull request from a fork or from Dependabot gets a read-only token: its
# plan is in the run's summary only. A plan that deletes or orphans objects fails the check until
# the pull request carries the label "${DESTRUCTIVE_LABEL}".
# \`clusterset init\` writes this file; it never overwrites one that exists.
name: clusterset
on:
  pull_request:
    types: [opened, synchronize, reopened, labeled, unlabeled]
  push:
    branches: [main]
permissions:
  contents: read
  pull-requests: write
concurrency:
  # a newer push or label change to a pull request cancels its older run; pushes to main never wait
  group: \${{ github.workflow }}-\${{ github.event.pull_request.number || github.sha }}
  cancel-in-progress: true
jobs:
  check:
    runs-on: ubuntu-latest
    steps:
      - uses: ${CHECKOUT}
        with:
          fetch-depth: 0
          persist-credentials: false   # no token in .git/config while pull-request code runs
      - uses: ${SETUP_NODE}
        with:
          node-version: 24              # a line antrea-clusterset states in its engines; lts/* moves on untested
          cache: npm
      - run: npm ci
      # on a pull request, what is unchanged since its base was checked when that was merged: only
      # the change is compiled (the base's dist/manifest.json; the pull request's own is never trusted)
      - name: validate definitions
        env:
          BASE: \${{ github.base_ref && format('origin/{0}', github.base_ref) || '' }}
        run: npx clusterset validate --format github \${BASE:+--base "$BASE"}
      - name: dist/ is up to date
        env:
          BASE: \${{ github.base_ref && format('origin/{0}', github.base_ref) || '' }}
        run: npx clusterset synth --check \${BASE:+--base "$BASE"}
      - name: plan as annotations, the run's summary and a pull-request comment
        if: github.event_name == 'pull_request'
        env:
          GH_TOKEN: \${{ github.token }}
          PR: \${{ github.event.pull_request.number }}
          HEAD_REPO: \${{ github.event.pull_request.head.repo.full_name }}
          BASE: origin/\${{ github.base_ref }}
          LABELS: \${{ toJSON(github.event.pull_request.labels.*.name) }}
        run: |
          if ! npx clusterset help plan > /dev/null 2>&1; then
            echo "this antrea-clusterset version has no plan command"; exit 0
          fi
          npx clusterset plan --base "$BASE" --format github || true
          status=0
          npx clusterset plan --base "$BASE" --format markdown > plan.md || status=$?
          cat plan.md >> "$GITHUB_STEP_SUMMARY"
          # the plan's comment starts with its marker line and is the workflow's own: updated, else added
          comment() {
            ids=$(gh api "repos/$GITHUB_REPOSITORY/issues/$PR/comments" --paginate \\
              --jq '.[] | select(.user.login == "github-actions[bot]" and (.body | startswith("${PLAN_MARKER}"))) | .id') || return
            id=$(printf '%s\\n' "$ids" | head -n 1)
            if [ -n "$id" ]; then
              gh api --method PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -F body=@plan.md > /dev/null
            else
              gh pr comment "$PR" --body-file plan.md
            fi
          }
          # a fork's or Dependabot's pull request runs with a read-only token: writing would answer 403
          if [ "$HEAD_REPO" != "$GITHUB_REPOSITORY" ] || [ "$GITHUB_ACTOR" = "dependabot[bot]" ]; then
            echo "::notice title=clusterset plan::the plan is in this run's summary (a pull request from a fork or Dependabot has a read-only token, so no comment)"
          elif ! comment; then
            echo "::warning title=clusterset plan::the plan comment could not be written (see above); the plan is in this run's summary"
          fi
          # 3: the plan deletes or orphans objects; the plan says which
          if [ "$status" -eq 3 ]; then
            if printf '%s' "$LABELS" | jq -e 'index("${DESTRUCTIVE_LABEL}")' > /dev/null; then
              echo "destructive plan accepted by the label ${DESTRUCTIVE_LABEL}"; exit 0
            fi
            echo "::error title=clusterset plan::the plan deletes or orphans objects (see the run's summary or the pull-request comment); add the label '${DESTRUCTIVE_LABEL}' to accept it"
            exit 3
          fi
          exit "$status"
`;
