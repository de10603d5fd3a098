import { resolve } from 'node:path';
import { FIXTURE_FORMATS, type FixtureFormat } from '../../interop/http-exchange.js';
import { importFixture } from '../../interop/import-fixture.js';
import { UsageError, type Command } from '../command.js';
import { paint } from '../io.js';
import { parseCommandLine } from '../parse.js';

const help = `Usage: nestcast import <file> --from nock|polly|har --to <recording folder>

Converts another tool's fixture into a nestcast recording: every model call of an API
nestcast knows (POST …/chat/completions, POST …/responses) becomes a call of the session that made it (the
x-session-lineage header when the fixture kept it, else the session derived from the
requests' content). Streamed bodies are split back into SSE events; fixtures keep no chunk
timing, so every delay is 0 and meta.json says where the calls came from. Other requests are
skipped and listed. The folder is scanned for secrets (the fixture's own credential headers
included) before anything is written.

  --from nock    a nock fixture: nock.recorder.play() with output_objects, or a nock.back file
  --from polly   a Polly.js recording (recording.har)
  --from har     a HAR 1.2 file (browser devtools, proxies)

Options:
  --from       the fixture's format (required)
  --to         the recording folder to write, e.g. recordings/trip (required)
  -h, --help   show this help`;

export const importCommand: Command = {
  name: 'import',
  summary: 'Convert a nock, Polly.js or HAR fixture into a recording',
  help,
  async run(argv, io) {
    const { values, positionals } = parseCommandLine(argv, { from: { type: 'string' }, to: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('give exactly one fixture file');
    const from = values.from;
    if (!FIXTURE_FORMATS.includes(from as FixtureFormat))
      throw new UsageError(`--from must be one of ${FIXTURE_FORMATS.join(', ')}`);
    if (values.to === undefined) throw new UsageError('--to <recording folder> is required');
    const file = resolve(io.cwd, positionals[0] as string);
    const to = resolve(io.cwd, values.to);
    const result = await importFixture(file, { from: from as FixtureFormat, to });
    const p = paint(io.color);
    const lines = [
      `${p.green('✓')} imported ${Object.values(result.sessions).reduce((a, b) => a + b, 0)} model calls into ${values.to}`,
    ];
    for (const [lineage, count] of Object.entries(result.sessions))
      lines.push(`  ${lineage}  ${count} call${count === 1 ? '' : 's'}`);
    if (result.skipped.length > 0) {
      lines.push(`  skipped ${result.skipped.length} other request${result.skipped.length === 1 ? '' : 's'}:`);
      for (const skipped of result.skipped) lines.push(p.dim(`    #${skipped.index} ${skipped.method} ${skipped.url}`));
    }
    for (const ambiguity of result.ambiguities) lines.push(p.yellow(`  ${ambiguity.code}: ${ambiguity.message}`));
    lines.push(
      p.dim(
        '  chunk timing is not in the fixture: replay serves events with no delay (--timing recorded has nothing to play)',
      ),
    );
    io.stdout(`${lines.join('\n')}\n`);
    return 0;
  },
};
