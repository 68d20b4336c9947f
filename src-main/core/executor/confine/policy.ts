import type { Settings } from '../../../../src-shared/settings';
import type { ConfinementSource } from './launch';

/**
 * The confinement policy from the settings, read at each run. `hide` names Postdesk's data directories:
 * the store, the sandbox's data, other runs' directories.
 */
export function confinementFromSettings(
  settings: () => Readonly<Settings>,
  hide: readonly string[],
): ConfinementSource {
  return (automationId) => {
    const s = settings();
    return {
      mode: s.agentConfinement,
      network: s.agentNetwork,
      readPaths: s.agentReadPaths,
      hide,
      folderWritable: automationId !== undefined && s.agentWritableFolders.includes(automationId),
    };
  };
}
