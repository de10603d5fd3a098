import { SubagentService } from '../../../providers/seam/subagent-service.js';
import type { SubagentCapabilities } from '../../../providers/seam/types.js';
import { toyFactory } from '../toy-provider.js';
import { mutant } from './mutant.js';
import { runtimeWithService } from './seam-runtime.js';

/** A seam that reads a provider's capabilities afresh at every start instead of keeping what it registered with. */
class ReadsCapabilitiesLive extends SubagentService {
  override capabilitiesOf(name: string): SubagentCapabilities | undefined {
    return this.getProvider(name)?.capabilities;
  }
}

export default mutant(
  import.meta.url,
  'a seam that checks starts against the capabilities a provider has now, not those it registered with',
  'capabilities-fixed-at-registration',
  {
    create: toyFactory().create,
    createRuntime: (sessionsRoot) => runtimeWithService(sessionsRoot, ReadsCapabilitiesLive),
  },
);
