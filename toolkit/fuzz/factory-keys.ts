import { misspeltOption, optionKeys } from '../../harness/option-keys.js';
import { FuzzError } from './fuzz-error.js';
import type { ProviderFactory, ProviderFixture } from './types.js';

const FACTORY_KEYS = optionKeys<ProviderFactory>({
  name: true,
  module: true,
  outcomes: true,
  streams: true,
  create: true,
  createRuntime: true,
});
const FIXTURE_KEYS = optionKeys<ProviderFixture>({ provider: true, alive: true, close: true, hearsSteering: true });

/**
 * Refuses a factory holding a misspelling of a key the suite reads (INVALID_PROVIDER_FACTORY): a
 * misspelt `createRuntime` would test the provider on the default runtime. Keys of the factory's
 * own that resemble none are its business.
 */
export function checkFactory(factory: ProviderFactory): void {
  const misspelt = misspeltOption(factory, FACTORY_KEYS);
  if (misspelt !== undefined)
    throw new FuzzError('INVALID_PROVIDER_FACTORY', `provider factory "${factory.name}": ${misspelt}`);
}

/**
 * The same for the fixture its `create` built: a misspelt `hearsSteering` or `alive` would leave
 * the steering or leak checks unrun while every schedule passed.
 */
export function checkFixture(factory: ProviderFactory, fixture: ProviderFixture): void {
  const misspelt = misspeltOption(fixture, FIXTURE_KEYS);
  if (misspelt !== undefined)
    throw new FuzzError(
      'INVALID_PROVIDER_FACTORY',
      `the fixture provider factory "${factory.name}" created: ${misspelt}`,
    );
}
