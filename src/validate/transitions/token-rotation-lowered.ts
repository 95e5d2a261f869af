import type { TransitionRule } from '../transition';

/**
 * `tokenSecret.rotation` names the member's token Secrets (`<name>-r<n>`); a lower number names
 * a token the checklist of an earlier rotation revoked (deleted on the leader), so the member
 * would read a Secret whose token the leader no longer accepts (kube-apiserver's legacy token
 * authenticator wants the Secret to exist: pkg/serviceaccount/legacy.go, Validate) and stay
 * Unauthorized. Rotating again is raising it.
 */
export const tokenRotationLowered: TransitionRule = {
  id: 'token-rotation-lowered',
  severity: 'error',
  description: "a member's tokenSecret.rotation goes down, back to a token an earlier rotation revoked",
  validate({ before, after, report }) {
    const old = new Map(before.clusters.filter((c) => c.isMember).map((c) => [c.clusterID, c]));
    for (const c of after.clusters) {
      const was = old.get(c.clusterID);
      if (!c.isMember || !was || c.rotation >= was.rotation) continue;
      const written = c.cluster.tokenSecret.rotation !== undefined;
      report({
        path: [...c.path, 'tokenSecret', ...(written ? ['rotation'] : [])],
        message: `the token rotation of "${c.clusterID}" goes down from ${was.rotation} to ${c.rotation}: ${c.clusterID} would read ${c.tokenSecretName} again, a token the rotation to ${was.rotation} revoked`,
        steps: [`keep tokenSecret.rotation: ${was.rotation} (the clusters run it)`, `to rotate the token again, raise it to ${was.rotation + 1}`],
        related: [{ path: [...was.path, 'tokenSecret', 'rotation'], before: true, message: `the clusters run rotation ${was.rotation}` }],
      });
    }
  },
};
