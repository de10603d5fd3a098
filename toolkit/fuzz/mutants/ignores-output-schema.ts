import { spawnFactory } from '../factories/in-process-factories.js';
import { mutant } from './mutant.js';
import { withStart } from './seam-runtime.js';

/** The spawn provider, advertising `outputSchema` but starting its child without the schema: accepted, then ignored. */
export default mutant(
  import.meta.url,
  'advertises outputSchema but starts the child without it, so the answer is never captured or validated',
  'structured-output-validated',
  {
    outcomes: spawnFactory.outcomes,
    create: async (context) => {
      const fixture = await spawnFactory.create(context);
      const { provider } = fixture;
      return {
        ...fixture,
        provider: withStart(provider, (request) => provider.start({ ...request, outputSchema: undefined })),
      };
    },
  },
);
