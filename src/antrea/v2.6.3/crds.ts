import type { CrdChanges } from '../derive';
import { editCrd } from '../derive';
import { packetCapture } from '../v2.7.0/crds/core/packet-capture';

/** v2.7 added AntreaNodeConfig and IPv6 SFTP addresses for PacketCapture uploads. */
export const core: CrdChanges = {
  remove: ['antreanodeconfigs.crd.antrea.io'],
  put: [editCrd(packetCapture, [{ version: 'v1alpha1', path: ['spec', 'fileServer', 'url'], edit: (s) => ({ ...s, pattern: 'sftp:\\/\\/[\\w-_./]+:\\d+' }) }])],
};
