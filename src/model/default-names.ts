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
