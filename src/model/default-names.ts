/**
 * The names a definition gives objects where it names none: the bundles' builders, the rules that
 * check what those objects collide with, the notes and `import` read them here, so each name is
 * made one way.
 */

/**
 * A member's ServiceAccount, token Secret and RoleBinding on the leader (`leaderCredentials`), one
 * name as `antctl mc create membertoken NAME` gives them; `-member-token` tells it apart from the
 * member-side copy (`<clusterID>-leader-token` by default).
 */
export const memberTokenName = (clusterID: string): string => `${clusterID}-member-token`;

/** A policy's ResourceExport on the leader (`exportName`): `<policy>-for-<clusterset>`, the naming of Antrea's user guide. */
export const replicatedPolicyName = (policy: string, clusterSet: string): string => `${policy}-for-${clusterSet}`;

/**
 * A credential's name at a token rotation (`tokenSecret.rotation`): the name itself at 0, then
 * `<name>-r<n>`. A rotation is a new name, never new data under the old one: Antrea's member
 * controller reads its token again only when `spec.leaders[0].secret` changes
 * (member/clusterset_controller.go, Reconcile, leaderChanged).
 */
export const rotatedName = (name: string, rotation: number | undefined): string => (rotation ? `${name}-r${rotation}` : name);
