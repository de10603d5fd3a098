import { rm } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../harness/runtime/logger.js';
import { Runtime } from '../../harness/runtime.js';
import { subagentsService } from '../../providers/seam/subagent-service.js';
import { assertProviderLifecycle, checkProviderLifecycle } from './check-provider-lifecycle.js';
import { formatConformanceFailure } from './format-failure.js';
import { spawnFactory } from './factories/in-process-factories.js';
import disposeBeforeChildStops from './mutants/dispose-before-child-stops.js';
import { formatCoverage } from './coverage.js';
import { NO_START_CAPABILITIES } from '../../providers/seam/types.js';
import { toyFactory, ToyProvider } from './toy-provider.js';
import type { ProviderFactory } from './types.js';

const broken = disposeBeforeChildStops;

describe('a failure', () => {
  it('prints what broke, the seed and path, the numbered interleaving and the command that reruns it', async () => {
    const report = await checkProviderLifecycle(broken, { runs: 300 });
    const failure = report.failure;
    if (failure === undefined) throw new Error('the broken provider was expected to fail');
    const text = formatConformanceFailure(report);
    // Its flaw shows either on a run the suite disposes or on a background task that ends before its child stops.
    expect(text).toMatch(/\[(dispose-leaves-nothing-alive|background-task-reports-its-run)\]/);
    expect(text).toContain(`seed ${failure.seed}, path ${failure.path}`);
    expect(failure.steps[0]).toMatch(/^1\. /);
    expect(text).toMatch(/dispose/);
    expect(failure.rerun).toBe(
      `nestcast fuzz --provider toolkit/fuzz/mutants/dispose-before-child-stops.ts --runs 300 --seed=${failure.seed} --path ${failure.path}`,
    );
    expect(text).toContain(`rerun: ${failure.rerun}`);
  });

  it('replays from its seed and path: the same schedule, the same steps, the same broken promise', async () => {
    const first = await checkProviderLifecycle(broken, { runs: 300 });
    const failure = first.failure;
    if (failure === undefined) throw new Error('the broken provider was expected to fail');
    const replay = await checkProviderLifecycle(broken, { runs: 300, seed: failure.seed, path: failure.path });
    expect(replay.schedules).toBe(1);
    expect(replay.failure?.schedule).toEqual(failure.schedule);
    expect(replay.failure?.steps).toEqual(failure.steps);
    expect(replay.failure?.violations).toEqual(failure.violations);
  });

  it('names random ids by their order of appearance, so a replay reads the same: seed 15 starts a run on a disposed parent, whose error names its id', async () => {
    const first = await checkProviderLifecycle(broken, { runs: 300, seed: 15 });
    const failure = first.failure;
    if (failure === undefined) throw new Error('the broken provider was expected to fail');
    expect(failure.steps.join('\n')).toMatch(/PARENT_DISPOSED: .*its parent agent main \(<id 1>\) is disposed/);
    expect(failure.steps.join('\n')).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
    const replay = await checkProviderLifecycle(broken, { runs: 300, seed: failure.seed, path: failure.path });
    expect(replay.failure?.steps).toEqual(failure.steps);
    expect(replay.failure?.violations).toEqual(failure.violations);
  });

  it("names the schedule's own folder <schedule dir>, so a replay, whose schedule runs in another folder, reads the same", async () => {
    const naming: ProviderFactory = {
      ...toyFactory(),
      name: 'toy-whose-fixture-names-its-folder',
      create: (context) => {
        throw new Error(`fixture cannot use ${context.scratch}`);
      },
    };
    const first = await checkProviderLifecycle(naming, { runs: 20, seed: 7 });
    const failure = first.failure;
    if (failure === undefined) throw new Error('the fixture was expected to fail');
    // Shrinking ran more schedules, each in a folder of its own: the one reported is not the replay's first.
    expect(first.schedules).toBeGreaterThan(1);
    expect(failure.violations[0]?.message).toContain('fixture cannot use <schedule dir>/scratch');
    expect(failure.violations[0]?.message).not.toContain('nestcast-fuzz-');
    const replay = await checkProviderLifecycle(naming, { runs: 20, seed: failure.seed, path: failure.path });
    expect(replay.schedules).toBe(1);
    expect(replay.failure?.violations).toEqual(failure.violations);
    expect(replay.failure?.steps).toEqual(failure.steps);
  });

  it('is thrown, readable, by assertProviderLifecycle', async () => {
    await expect(assertProviderLifecycle(broken, { runs: 300 })).rejects.toMatchObject({
      code: 'LIFECYCLE_VIOLATION',
      message: expect.stringContaining(
        'rerun: nestcast fuzz --provider toolkit/fuzz/mutants/dispose-before-child-stops.ts',
      ),
    });
  });

  it('of the suite itself is a suite failure with seed, path and the step that blew up, not a crash', async () => {
    let calls = 0;
    const exploding: ProviderFactory = {
      ...toyFactory(),
      name: 'toy-with-exploding-fixture',
      create: (context) => {
        if (++calls === 3) throw new TypeError('fixture blew up');
        return toyFactory().create(context);
      },
    };
    const report = await checkProviderLifecycle(exploding, { runs: 20, seed: 5, endOnFailure: true });
    expect(report.failure).toMatchObject({
      kind: 'suite',
      seed: 5,
      path: expect.stringMatching(/^\d+/),
      step: expect.any(String),
    });
    expect(report.failure?.violations[0]).toMatchObject({
      promise: 'suite-error',
      message: expect.stringContaining('fixture blew up'),
    });
    expect(formatConformanceFailure(report)).toContain('the lifecycle suite itself failed');
  });
});

describe('options', () => {
  it.each([0, -1, 1.5, Number.NaN])('refuses runs = %s', async (runs) => {
    await expect(checkProviderLifecycle(toyFactory(), { runs })).rejects.toMatchObject({
      code: 'INVALID_FUZZ_OPTIONS',
    });
  });

  it('refuses a path without the seed it belongs to', async () => {
    await expect(checkProviderLifecycle(toyFactory(), { runs: 1, path: '3:1' })).rejects.toMatchObject({
      code: 'INVALID_FUZZ_OPTIONS',
      message: expect.stringContaining('seed'),
    });
  });

  it('refuses an option it does not read, at the top and in schedule, naming the one meant: a misspelt seed would run another seed', async () => {
    await expect(checkProviderLifecycle(toyFactory(), { runs: 1, sead: 42 } as never)).rejects.toMatchObject({
      code: 'INVALID_FUZZ_OPTIONS',
      message: expect.stringMatching(
        /^checkProviderLifecycle: unknown option "sead" \(did you mean "seed"\?\); the options are runs, seed, /,
      ),
    });
    await expect(
      checkProviderLifecycle(toyFactory(), { runs: 1, schedule: { maxRun: 2 } } as never),
    ).rejects.toMatchObject({
      code: 'INVALID_FUZZ_OPTIONS',
      message: expect.stringContaining('unknown option "schedule.maxRun" (did you mean "schedule.maxRuns"?)'),
    });
  });

  it('refuses a factory or fixture holding a misspelt key the suite reads, and lets keys of their own be', async () => {
    const factory = toyFactory();
    // A misspelt createRuntime would test the provider on the default runtime.
    await expect(
      checkProviderLifecycle({ ...factory, createRuntme: factory.createRuntime } as never, { runs: 1 }),
    ).rejects.toMatchObject({
      code: 'INVALID_PROVIDER_FACTORY',
      message: 'provider factory "toy": unknown key "createRuntme" (did you mean "createRuntime"?)',
    });
    // A misspelt hearsSteering would leave the steering check unrun while every schedule passed.
    const hearing: ProviderFactory = {
      ...factory,
      create: async (context) => {
        const { hearsSteering, ...fixture } = await factory.create(context);
        return { ...fixture, hearSteering: hearsSteering };
      },
    };
    await expect(checkProviderLifecycle(hearing, { runs: 3 })).rejects.toMatchObject({
      code: 'INVALID_PROVIDER_FACTORY',
      message: 'the fixture provider factory "toy" created: unknown key "hearSteering" (did you mean "hearsSteering"?)',
    });
    const own = { ...factory, connectionPool: [] as unknown[] };
    const report = await checkProviderLifecycle(own, { runs: 3 });
    // Three schedules ran and broke no promise (three are too few to reach every path: coverage may fail).
    expect(report.schedules).toBeGreaterThanOrEqual(3);
    expect(report.ok || report.failure?.kind === 'coverage').toBe(true);
  });

  it('fails a schedule that does not finish in time, naming the run that is stuck', async () => {
    const neverReady: ProviderFactory = {
      name: 'never-ready',
      outcomes: ['complete'],
      create: () => ({
        provider: {
          name: 'never-ready',
          capabilities: { outputSchema: false, maxDepth: false, toolFilter: false, persona: false },
          inheritsParentContext: false,
          start: () => new Promise(() => undefined),
        },
      }),
    };
    const report = await checkProviderLifecycle(neverReady, {
      runs: 20,
      seed: 1,
      timeoutMs: 50,
      endOnFailure: true,
      schedule: { maxRuns: 1 },
    });
    expect(report.failure?.violations[0]).toMatchObject({
      promise: 'schedule-finishes',
      message: expect.stringContaining('run r0-complete'),
    });
  });
});

describe('the escape watch', () => {
  it("gives the process's own unhandled-rejection handlers back once the suite is done", async () => {
    const before = process.listeners('unhandledRejection');
    await checkProviderLifecycle(toyFactory(), { runs: 5 });
    expect(process.listeners('unhandledRejection')).toEqual(before);
  });
});

describe('legal timing of a provider', () => {
  it("judges a child session file removed between listing and reading as the provider's rollback, not a suite error", async () => {
    let removed = 0;
    const rollsBackLate: ProviderFactory = {
      ...spawnFactory,
      createRuntime: async (sessionsRoot) => {
        const runtime = new Runtime({ sessionsRoot, logger: createMemoryLogger() });
        await runtime.use(subagentsService);
        const list = runtime.sessions.list.bind(runtime.sessions);
        // Every child file disappears right after it was listed, as a rollback landing in between would make it.
        runtime.sessions.list = async () => {
          const paths = await list();
          for (const path of paths.filter((p) => !p.includes('main'))) {
            await rm(path, { force: true });
            removed++;
          }
          return paths;
        };
        return runtime;
      },
    };
    const report = await checkProviderLifecycle(rollsBackLate, { runs: 30 });
    // With every child log gone the denied-tool path cannot be seen: only a coverage failure may remain.
    expect([undefined, 'coverage'], formatConformanceFailure(report)).toContain(report.failure?.kind);
    expect(removed).toBeGreaterThan(0);
  });
});

describe('the paths a provider claims', () => {
  it('fail the run when the schedules never reached one, though every promise held, naming it', async () => {
    // Advertises persona, but its children only ever hang: no persona run settles on its own.
    class PersonaProvider extends ToyProvider {
      override readonly capabilities = { ...NO_START_CAPABILITIES, persona: true };
    }
    const claimsPersona: ProviderFactory = {
      ...toyFactory('persona-toy', (ctx) => new PersonaProvider(ctx, 'persona-toy')),
      outcomes: ['hang'],
    };
    const report = await checkProviderLifecycle(claimsPersona, { runs: 100, seed: 1 });
    expect(report.claimedPaths).toContain('path:ask-persona');
    expect(report.coverage['path:ask-persona']).toBeUndefined();
    expect(report.failure?.kind, formatConformanceFailure(report)).toBe('coverage');
    // Before failing, it looked four more rounds of 100 for the path; the seed printed is the first round's.
    expect(report.topUps).toBe(4);
    expect(report.schedules).toBe(500);
    expect(report.seed).toBe(1);
    expect(report.failure?.rerun).toBe('nestcast fuzz --provider persona-toy --runs 100 --seed=1');
    expect(report.failure?.violations).toEqual([
      {
        promise: 'paths-reached',
        message: expect.stringContaining(
          'never reached in 500 schedule(s) (100 asked for, then 4 more round(s) of 100',
        ),
      },
    ]);
    expect(report.failure?.violations[0]?.message).toMatch(/: ask-persona\. Run more schedules/);
    expect(formatConformanceFailure(report)).toContain('did not reach every path it claims');
    expect(formatCoverage(report.coverage, report.claimedPaths)).toMatch(/^ {2}\* ask-persona +-$/m);
  });

  it(
    'are every documented path a correct provider with every capability reaches in 1,000 schedules',
    { timeout: 300_000 },
    async () => {
      const report = await checkProviderLifecycle(spawnFactory, { runs: 1000, seed: 1 });
      expect(report.ok, formatConformanceFailure(report)).toBe(true);
      expect(report.claimedPaths).toEqual(
        expect.arrayContaining([
          'path:ask-max-depth-below',
          'path:ask-max-depth-at',
          'path:ask-max-depth-past',
          'path:ask-persona',
          'path:ask-tool-filter-denied-call',
          'path:ask-output-schema-valid',
          'path:ask-output-schema-invalid',
          'path:stop-max-tokens',
          'path:stop-refusal',
          'path:stop-error-uncancelled',
          'path:steer-beside-a-live-sibling',
          'path:resume-beside-a-live-sibling',
          'path:parent-several-turns',
          'path:parent-tool-error-last',
          'path:parent-own-tool-call',
          'path:cancel-after-streamed',
          'path:background-completed',
          'path:background-killed',
          'path:background-failed',
        ]),
      );
    },
  );
});
