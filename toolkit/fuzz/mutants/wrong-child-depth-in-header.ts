import { spawnFactory } from '../factories/in-process-factories.js';
import { mutant } from './mutant.js';
import { withStart } from './seam-runtime.js';

/** The spawn provider, handed a depth one too deep: the child session's header no longer matches its parent. */
export default mutant(
  import.meta.url,
  "writes a child session header whose delegationDepth is not its parent's + 1",
  'child-header-matches-parent',
  {
    outcomes: spawnFactory.outcomes,
    create: async (context) => {
      const fixture = await spawnFactory.create(context);
      const provider = fixture.provider;
      return {
        ...fixture,
        provider: withStart(provider, (request) => provider.start({ ...request, depth: request.depth + 1 })),
      };
    },
  },
);
