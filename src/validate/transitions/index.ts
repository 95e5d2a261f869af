import type { TransitionRule } from '../transition';
import { clustersetRename } from './clusterset-rename';
import { gatewayRemoved } from './gateway-removed';
import { leaderMove } from './leader-move';
import { memberRemovedWithoutWithdraw } from './member-removed-without-withdraw';
import { tierPriorityImmutable } from './tier-priority-immutable';
import { tierRemovedInUse } from './tier-removed-in-use';
import { tierSwap } from './tier-swap';
import { tokenRotationLowered } from './token-rotation-lowered';

/** Every transition rule (docs/rules/<id>.md); ids equal the file names. */
export const allTransitions: readonly TransitionRule[] = [
  clustersetRename,
  gatewayRemoved,
  leaderMove,
  memberRemovedWithoutWithdraw,
  tierPriorityImmutable,
  tierRemovedInUse,
  tierSwap,
  tokenRotationLowered,
];
