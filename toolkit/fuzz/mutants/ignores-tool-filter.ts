import { spawnFactory } from '../factories/in-process-factories.js';
import { mutant } from './mutant.js';
import { withStart } from './seam-runtime.js';

/** The spawn provider, advertising `toolFilter` but starting its child without it: a denied tool runs when named. */
export default mutant(
  import.meta.url,
  'advertises toolFilter but starts the child without it, so a denied tool runs when the model names it',
  'denied-tool-never-runs',
  {
    outcomes: spawnFactory.outcomes,
    create: async (context) => {
      const fixture = await spawnFactory.create(context);
      const { provider } = fixture;
      return {
        ...fixture,
        provider: withStart(provider, (request) => provider.start({ ...request, toolFilter: undefined })),
      };
    },
  },
);
