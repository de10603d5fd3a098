import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { compileScript } from '../authored/compile-script.js';
import { loadCassette } from '../cassette/load-cassette.js';
import { saveCassette } from '../cassette/save-cassette.js';
import { exportRecording } from '../interop/export-recording.js';
import { importFixture } from '../interop/import-fixture.js';
import { writeReport } from '../report/write-report.js';
import { writeReportFiles } from '../report/write-report-files.js';
import { assertNoSecrets, secretWriteGuard, writeFilesScanned } from '../secrets/scan-before-write.js';
import { openCassette } from '../cassette-session/open-cassette.js';
import { sampleCassette } from '../cassette/testing/sample-cassette.js';
import { serveCassetteWithMsw } from '../guard/serve-cassette-with-msw.js';
import { createRecordingFetch } from '../record/recording-fetch.js';
import { createReplayingFetch } from '../replay/replaying-fetch.js';
import { runScenario } from '../scenarios/run-scenario.js';
import { withCassette } from '../vitest/cassette-test.js';
import { scenarioTest } from '../vitest/scenario-test.js';

describe('a misspelt option is refused where it is given, never read as unset', () => {
  const invalid = (message: string) => expect.objectContaining({ code: 'OPTIONS_INVALID', message });

  test('openCassette, its recording and replay options, and withCassette as the test file loads', async () => {
    // `mdoe: 'all'` read as unset would replay the old recording instead of recording again.
    await expect(openCassette('/nowhere', { mdoe: 'all' } as never)).rejects.toThrow(
      invalid(
        'openCassette: unknown option "mdoe" (did you mean "mode"?); the options are mode, recording, replay, provenance, recordHint.',
      ),
    );
    await expect(openCassette('/nowhere', { replay: { mdoe: 'sequence' } } as never)).rejects.toThrow(
      invalid(
        expect.stringContaining('openCassette: unknown option "replay.mdoe" (did you mean "replay.mode"?)') as never,
      ),
    );
    await expect(openCassette('/nowhere', { recording: { secret: ['sk-1'] } } as never)).rejects.toThrow(
      invalid(
        expect.stringContaining('unknown option "recording.secret" (did you mean "recording.secrets"?)') as never,
      ),
    );
    expect(() => withCassette({ dri: () => '/nowhere' } as never)).toThrow(
      invalid(expect.stringContaining('withCassette: unknown option "dri" (did you mean "dir"?)') as never),
    );
  });

  test('runScenario, and scenarioTest as the test file loads', async () => {
    // `recordingDir` read as unset would replay recordings/ instead of the folder meant.
    await expect(runScenario({ name: 'x' } as never, { recordingDir: '/elsewhere' } as never)).rejects.toMatchObject({
      code: 'OPTIONS_INVALID',
      message: expect.stringContaining('runScenario: unknown option "recordingDir" (did you mean "recordingsDir"?)'),
    });
    expect(() => scenarioTest('x', { scenarioDir: 'elsewhere' } as never)).toThrow(
      expect.objectContaining({
        code: 'OPTIONS_INVALID',
        message: expect.stringContaining('scenarioTest: unknown option "scenarioDir" (did you mean "scenariosDir"?)'),
      }),
    );
    expect(() => scenarioTest('x', { mode: 'record' } as never)).toThrow(/scenarioTest: unknown option "mode"/);
  });

  test('createRecordingFetch, createReplayingFetch and serveCassetteWithMsw', () => {
    // `secret` read as unset would leave a key that is not a credential header unscanned.
    expect(() => createRecordingFetch({ secret: ['sk-1'] } as never)).toThrow(
      invalid(
        expect.stringContaining('createRecordingFetch: unknown option "secret" (did you mean "secrets"?)') as never,
      ),
    );
    expect(() => createReplayingFetch(sampleCassette(), { timming: 'recorded' } as never)).toThrow(
      invalid(
        expect.stringContaining('createReplayingFetch: unknown option "timming" (did you mean "timing"?)') as never,
      ),
    );
    expect(() =>
      serveCassetteWithMsw(sampleCassette(), { baseUrl: 'http://api.test', mdoe: 'sequence' } as never),
    ).toThrow(invalid(expect.stringContaining('unknown option "mdoe" (did you mean "mode"?)') as never));
    expect(() =>
      serveCassetteWithMsw(sampleCassette(), { baseUrl: 'http://api.test', mode: 'sequence' }),
    ).not.toThrow();
  });

  test('every entry point that writes files: a misspelt `secrets` would write them unscanned for that key, and nothing is written', async () => {
    const dir = await makeTempDir('refused-options-');
    try {
      const cassette = join(dir, 'cassette');
      const secret = { secret: ['sk-live-1'] } as never;
      await expect(saveCassette(cassette, sampleCassette(), secret)).rejects.toThrow(
        invalid('saveCassette: unknown option "secret" (did you mean "secrets"?); the options are secrets.'),
      );
      await expect(
        importFixture(join(dir, 'fixture.har'), { from: 'har', to: cassette, secret: ['sk-live-1'] } as never),
      ).rejects.toThrow(invalid(expect.stringContaining('importFixture: unknown option "secret"') as never));
      await expect(
        exportRecording(cassette, { to: 'har', file: join(dir, 'out.har'), secret: ['k'] } as never),
      ).rejects.toThrow(invalid(expect.stringContaining('exportRecording: unknown option "secret"') as never));
      await expect(writeReportFiles(join(dir, 'report'), [], secret)).rejects.toThrow(
        invalid(expect.stringContaining('writeReportFiles: unknown option "secret"') as never),
      );
      await expect(writeReport(join(dir, 'report'), [], secret)).rejects.toThrow(
        invalid(expect.stringContaining('writeReport: unknown option "secret"') as never),
      );
      await expect(writeFilesScanned([{ path: join(dir, 'f.txt'), text: 'x' }], secret)).rejects.toThrow(
        invalid(expect.stringContaining('writeFilesScanned: unknown option "secret"') as never),
      );
      expect(() => assertNoSecrets([], secret)).toThrow(invalid(expect.stringContaining('assertNoSecrets') as never));
      expect(() => secretWriteGuard(secret)).toThrow(invalid(expect.stringContaining('secretWriteGuard') as never));
      for (const written of ['cassette', 'out.har', 'report', 'f.txt'])
        expect(existsSync(join(dir, written))).toBe(false);
    } finally {
      await removeTempDir(dir);
    }
  });

  test('loadCassette and compileScript', async () => {
    await expect(loadCassette('/nowhere', { recordHnit: 'npm run record' } as never)).rejects.toThrow(
      invalid(
        expect.stringContaining('loadCassette: unknown option "recordHnit" (did you mean "recordHint"?)') as never,
      ),
    );
    expect(() => compileScript({ sessions: {} } as never, { eventDealy: 0 } as never)).toThrow(
      invalid(
        expect.stringContaining('compileScript: unknown option "eventDealy" (did you mean "eventDelay"?)') as never,
      ),
    );
  });
});
