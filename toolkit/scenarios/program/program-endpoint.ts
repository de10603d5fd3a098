import { startModelServer } from '../../serve/start-model-server.js';
import { ScenarioError } from '../scenario-error.js';

/** A program run's `nestcast serve` endpoint, listening before the run's fetch exists (the guard must let it through). */
export interface ProgramEndpointServer {
  readonly baseUrl: string;
  readonly env: Readonly<Record<string, string>>;
  /** Whether a request goes to this endpoint: what replay's network guard lets through. */
  allows(url: URL): boolean;
  /** From now on, every call it receives goes through `fetch`: the program's own. */
  serveThrough(fetch: typeof globalThis.fetch): void;
  close(): Promise<void>;
}

/**
 * Starts the endpoint on a free loopback port. It answers through the fetch the program gets, so
 * a process the program starts is recorded and replayed in the same sessions, cursors and
 * recording as the program's in-process calls.
 */
export async function openProgramEndpoint(): Promise<ProgramEndpointServer> {
  let through: typeof globalThis.fetch | undefined;
  const server = await startModelServer({
    through: (input, init) => {
      if (through === undefined)
        throw new ScenarioError('ERROR', 'The scenario endpoint was called before its run had begun.');
      return through(input, init);
    },
  });
  const own = new URL(server.url);
  return {
    baseUrl: server.url,
    env: server.env,
    allows: (url) => url.hostname === own.hostname && url.port === own.port,
    serveThrough: (fetch) => void (through = fetch),
    close: async () => void (await server.close()),
  };
}
