import { CHECKOUT, SETUP_NODE } from './action-pins';
import { dumpKinds, OPTIONAL_KINDS } from '../live/dump-kinds';
import { DRIFT_MARKER } from '../live/render-drift';

/** Where `init` writes the drift watch, beside the pull-request workflow (never over an existing file). */
export const DRIFT_WORKFLOW_PATH = '.github/workflows/clusterset-drift.yml';

/** The label the watch's one issue carries: the workflow finds the issue by it. */
export const DRIFT_LABEL = 'clusterset: drift';

/** The repository secret holding a cluster's kubeconfig: `KUBECONFIG_<CLUSTER_ID>`, upper case, `-` and `.` as `_`. */
export const kubeconfigSecret = (clusterID: string): string => `KUBECONFIG_${clusterID.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/**
 * What the read step lists, as read-context.ts does: every documented kind of a dump (dump-kinds.ts),
 * of which each cluster is asked only those its API serves (a member has no ResourceExport CRD, and
 * `kubectl get` fails as a whole on an unknown type).
 */
const KINDS = [...dumpKinds('dual-role'), ...OPTIONAL_KINDS].map((d) => d.resource).join(',');

/**
 * The drift watch `init` writes for the starter definition's clusters. Steps run by bash
 * (`bash -e`); tested with actionlint and shellcheck, and run against dumps with stand-ins for
 * kubectl and gh (test/cli/drift-workflow.test.ts). The kubeconfigs reach only the read step, are
 * written to files only its user can read, and are never printed; the dumps (a leader's holds
 * token Secrets) stay in the runner's temporary folder, never uploaded.
 */
export function driftWorkflow(clusterIDs: readonly string[]): string {
  return `# The drift watch: every day, and by hand (Actions → clusterset drift → Run workflow), each
# cluster is read with a read-only kubeconfig and compared with the definitions in git by
# \`clusterset drift\` (docs/adopt.md, "Watch for drift"). One issue labelled "${DRIFT_LABEL}" is
# opened when the fleet drifts or a cluster cannot be read, kept up to date while that lasts, and
# closed when the fleet matches git again. A cluster that cannot be read never counts as matching.
# Setup: one repository secret per cluster, named KUBECONFIG_<CLUSTER ID> in upper case with - as _,
# holding a kubeconfig whose user may only get and list (docs/adopt.md gives the ClusterRole); one
# line per cluster in CLUSTERS and in env below, when a cluster joins or leaves.
name: clusterset drift
on:
  schedule:
    - cron: '17 5 * * *'
  workflow_dispatch:
permissions:
  contents: read
  issues: write
concurrency:
  group: clusterset-drift
  cancel-in-progress: false
jobs:
  drift:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      - uses: ${CHECKOUT}
        with:
          persist-credentials: false
      - uses: ${SETUP_NODE}
        with:
          node-version: 24
          cache: npm
      - run: npm ci
${readStep(clusterIDs)}${COMPARE_STEP}`;
}

/** The step that reads each cluster into a dump with its kubeconfig, which only this step sees. */
function readStep(clusterIDs: readonly string[]): string {
  const secrets = clusterIDs.map((id) => `          ${kubeconfigSecret(id)}: \${{ secrets.${kubeconfigSecret(id)} }}`).join('\n');
  return `      - name: read each cluster
        env:
          CLUSTERS: ${clusterIDs.join(' ')}
          KINDS: ${KINDS}
${secrets}
        run: |
          umask 077
          dumps="$RUNNER_TEMP/clusterset-dumps"
          mkdir -p "$dumps"
          for id in $CLUSTERS; do
            var="KUBECONFIG_$(printf '%s' "$id" | tr '[:lower:]' '[:upper:]' | tr -c 'A-Z0-9\\n' '_')"
            config=$(mktemp "$RUNNER_TEMP/kubeconfig.XXXXXX")
            printenv "$var" > "$config" || true
            # kinds the cluster serves, of those a dump holds (a bare name matches its resource in any group)
            if [ ! -s "$config" ]; then
              echo "::error title=clusterset drift::no secret $var: cluster $id cannot be read"
            elif ! served=$(kubectl --kubeconfig "$config" --request-timeout=30s api-resources --verbs=list -o name) ||
              ! resources=$(printf '%s\\n' "$served" | awk -v want="$KINDS" '{ s[$0] = 1; sub(/\\..*/, ""); s[$0] = 1 }
                END { n = split(want, w, ","); for (i = 1; i <= n; i++) if (w[i] in s) printf "%s%s", (k++ ? "," : ""), w[i] }') ||
              ! kubectl --kubeconfig "$config" --request-timeout=60s get "$resources" -A -o yaml > "$dumps/$id.yaml"; then
              rm -f "$dumps/$id.yaml"
              echo "::error title=clusterset drift::kubectl could not read cluster $id"
            fi
            rm -f "$config"
          done
          echo "CLUSTERSET_DUMPS=$dumps" >> "$GITHUB_ENV"
`;
}

/** The step that compares the dumps with git and keeps the watch's one issue up to date. */
const COMPARE_STEP = `      - name: compare with git, keep the drift issue up to date
        env:
          GH_TOKEN: \${{ github.token }}
          GH_REPO: \${{ github.repository }}
          LABEL: '${DRIFT_LABEL}'
          RUN_URL: \${{ github.server_url }}/\${{ github.repository }}/actions/runs/\${{ github.run_id }}
        run: |
          if ! npx clusterset help drift > /dev/null 2>&1; then
            echo "::error title=clusterset drift::this antrea-clusterset version has no drift command"; exit 1
          fi
          status=0
          npx clusterset drift --live "$CLUSTERSET_DUMPS" --format markdown > drift.md || status=$?
          printf '\\nRead by [the drift watch](%s); its log holds the diagnostics.\\n' "$RUN_URL" >> drift.md
          cat drift.md >> "$GITHUB_STEP_SUMMARY"
          # 0 matches, 4 drifts, 1 a cluster not read or compared: anything else is the watch's own failure
          case "$status" in
            0|1|4) ;;
            *) echo "::error title=clusterset drift::clusterset drift failed (exit $status); the issue is left as it is"; exit "$status" ;;
          esac
          # the watch's one issue: the open issue with the label (its body starts with ${DRIFT_MARKER})
          number=$(gh issue list --state open --label "$LABEL" --limit 1 --json number --jq '.[0].number // empty')
          if [ "$status" -eq 0 ]; then
            if [ -n "$number" ]; then
              gh issue close "$number" --comment "The running fleet matches git again: $RUN_URL"
            fi
            exit 0
          fi
          if [ "$status" -eq 4 ]; then title='ClusterSet drift: the running fleet does not match git'
          else title='ClusterSet drift: a cluster could not be read or compared'; fi
          if [ -n "$number" ]; then
            gh issue edit "$number" --title "$title" --body-file drift.md
          else
            gh label create "$LABEL" --force --color D93F0B --description 'opened and closed by the clusterset drift workflow'
            gh issue create --title "$title" --label "$LABEL" --body-file drift.md
          fi
          exit "$status"
`;
