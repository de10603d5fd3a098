import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir, removeTempDir } from '../../test/support/temp-dir.js';
import { HarnessError } from '../errors.js';
import { balancedPrefix } from './balanced-prefix.js';
import { assertInvariants } from './invariants.js';
import { serializeSessionLog } from './jsonl.js';
import { buildLog } from './log-builder.js';
import { SessionStore } from './session-store.js';
import type { NewSessionEvent, SessionEvent } from './types.js';

let root: string;
let store: SessionStore;

beforeEach(async () => {
  root = await makeTempDir('sessions-');
  store = new SessionStore({ root });
});

afterEach(async () => {
  vi.restoreAllMocks();
  await store.closeAll();
  await removeTempDir(root);
});

const say = (text: string): NewSessionEvent => ({ type: 'user/message', data: { content: [{ type: 'text', text }] } });

async function rejection(promise: Promise<unknown>): Promise<HarnessError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof HarnessError)) throw new Error(`expected a HarnessError, got ${String(error)}`);
  return error;
}

function thrownBy(action: () => unknown): HarnessError {
  try {
    action();
  } catch (error) {
    if (error instanceof HarnessError) return error;
  }
  throw new Error('expected a HarnessError');
}

describe('SessionStore.create', () => {
  it('writes a header-only file named after the id, with defaults for a top-level session', async () => {
    const session = await store.create({ id: 's1', cwd: '/repo' });
    expect(session.path).toBe(join(root, 's1.jsonl'));
    const lines = (await readFile(session.path, 'utf8')).split('\n');
    expect(lines).toHaveLength(2);
    const header = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(header).toEqual({
      type: 'session',
      version: 1,
      id: 's1',
      createdAt: expect.any(Number),
      cwd: '/repo',
      lineage: 'main',
      origin: 'user',
      delegationDepth: 0,
    });
    expect(session.header).toEqual(header);
    expect(session.events).toEqual([]);
    expect((await store.create({ seed: [] })).header).not.toHaveProperty('seedLength');
  });

  it('writes parentSession, spawnedBy and seedLength only when given, and the seed after the header', async () => {
    const parent = buildLog()
      .user('hi')
      .turn((t) => t.step((s) => s.assistant('hello')))
      .user('fork please')
      .build();
    const seed = balancedPrefix(parent.events);
    const child = await store.create({
      id: 'child',
      lineage: 'main/call_1',
      parentSession: 'parent',
      spawnedBy: 'call_1',
      origin: 'subagent',
      delegationDepth: 1,
      seed,
    });
    expect(child.header).toMatchObject({
      parentSession: 'parent',
      spawnedBy: 'call_1',
      seedLength: seed.length,
      delegationDepth: 1,
    });
    expect(child.events).toEqual(seed);
    expect(await store.load('child')).toEqual({ path: child.path, header: child.header, events: seed });
  });

  it('refuses a seed that is not a closed log, naming the first violation, and writes nothing', async () => {
    const open = buildLog()
      .user('go')
      .turn((t) => t.step((s) => s.call('c1', 'fork'), { open: true }), { open: true })
      .build();
    const error = await rejection(store.create({ id: 'bad-seed', seed: open.events }));
    expect(error.code).toBe('INVALID_SEED');
    expect(error.message).toMatch(/\[(seed-closed|finished-closed)\] at seq 1: .*turn 1/);
    expect(await store.list()).toEqual([]);
  });

  it('refuses a seed whose seq does not start at 0', async () => {
    const events = buildLog()
      .turn()
      .build()
      .events.map((event) => ({ ...event, seq: event.seq + 3 }) as SessionEvent);
    const error = await rejection(store.create({ seed: events }));
    expect(error).toMatchObject({
      code: 'INVALID_SEED',
      message: expect.stringMatching(/\[seq-contiguous\] at seq 0/),
    });
  });

  it('refuses a seed holding data that is not plain JSON', async () => {
    const [first, ...rest] = buildLog()
      .turn((t) => t.step((s) => s.call('c', 'ls').result('c', 'ok')))
      .build().events;
    const events = [first, ...rest].map((event) =>
      event?.type === 'tool/call'
        ? ({ ...event, data: { ...event.data, args: { at: new Date(0) } } } as SessionEvent)
        : event,
    ) as SessionEvent[];
    const error = await rejection(store.create({ seed: events }));
    expect(error).toMatchObject({
      code: 'INVALID_SEED',
      message: expect.stringMatching(/from its seed: seed\[2\]\.data\.args\.at is a Date/),
    });
  });

  it('refuses an id that is already taken, leaving the first file intact', async () => {
    const first = await store.create({ id: 'dup' });
    first.append(say('keep me'));
    const error = await rejection(store.create({ id: 'dup' }));
    expect(error.code).toBe('SESSION_EXISTS');
    expect(error.message).toMatch(/sessions\.resume\("dup"\)/);
    expect((await store.load('dup')).events).toHaveLength(1);
  });

  it('of two concurrent creates with the same id exactly one wins', async () => {
    const outcomes = await Promise.allSettled([store.create({ id: 'race' }), store.create({ id: 'race' })]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({
      reason: { code: 'SESSION_EXISTS' },
    });
  });

  it('leaves no temp files behind', async () => {
    await store.create({ id: 'a' });
    await rejection(store.create({ id: 'a' }));
    expect(await readdir(root)).toEqual(['a.jsonl']);
  });

  it.each([
    ['a negative delegationDepth', { delegationDepth: -1 }, /delegationDepth must be a non-negative integer/],
    ['a fractional delegationDepth', { delegationDepth: 1.5 }, /delegationDepth/],
    ['an id that is a path', { id: '../escape' }, /cannot name a file/],
    ['a lineage with an empty segment', { lineage: 'main//x' }, /empty segment/],
    ['a spawnedBy that is not the lineage tail', { lineage: 'main/a', spawnedBy: 'b' }, /must end with "\/b"/],
    [
      'an option it does not read (a misspelt parentSession wrote a root)',
      { lineage: 'main/a', parentSesion: 'p' },
      /unknown option "parentSesion" \(did you mean "parentSession"\?\)/,
    ],
  ])('refuses %s before writing anything', async (_case, options, message) => {
    const error = await rejection(store.create(options));
    expect(error).toMatchObject({ code: 'INVALID_SESSION_OPTIONS', message: expect.stringMatching(message) });
    expect(await store.list()).toEqual([]);
  });
});

describe('new SessionStore', () => {
  it('refuses an option it does not read: a misspelt beforeWrite wrote session files no secret scan saw', () => {
    expect(() => new SessionStore({ root, beforeWirte: () => undefined } as never)).toThrow(
      expect.objectContaining({
        code: 'INVALID_SESSION_OPTIONS',
        message: expect.stringContaining('unknown option "beforeWirte" (did you mean "beforeWrite"?)'),
      }),
    );
  });
});

describe('SessionStore.create on a scratch root (durable: false)', () => {
  it('publishes the same whole file, refuses a taken id leaving the first intact, and leaves no temp files', async () => {
    const scratch = new SessionStore({ root: join(root, 'scratch'), durable: false });
    const durable = await store.create({ id: 'same', cwd: '/repo' });
    const session = await scratch.create({ id: 'same', cwd: '/repo' });
    session.append(say('keep me'));

    const header = (text: string) => ({ ...(JSON.parse(text.split('\n')[0] ?? '') as object), createdAt: 0 });
    expect(header(await readFile(session.path, 'utf8'))).toEqual(header(await readFile(durable.path, 'utf8')));
    const error = await rejection(scratch.create({ id: 'same' }));
    expect(error.code).toBe('SESSION_EXISTS');
    expect((await scratch.load('same')).events).toHaveLength(1);
    expect(await readdir(join(root, 'scratch'))).toEqual(['same.jsonl']);
    await scratch.closeAll();
  });
});

describe('Session.append', () => {
  it('stamps seq and time, writes the line before returning, and keeps the log valid', async () => {
    const session = await store.create({ id: 'loop' });
    const events: NewSessionEvent[] = [
      say('hi'),
      { type: 'turn/start', data: { turn: 1 } },
      { type: 'step/start', data: { turn: 1, step: 1 } },
      { type: 'assistant/message', data: { turn: 1, step: 1, content: [{ type: 'text', text: 'hello' }] } },
      { type: 'step/end', data: { turn: 1, step: 1, finish: 'stop', usage: { inputTokens: 3, outputTokens: 1 } } },
      { type: 'turn/end', data: { turn: 1, reason: 'completed' } },
    ];
    for (const [index, event] of events.entries()) {
      const stored = session.append(event);
      expect(stored.seq).toBe(index);
      const onDisk = (await readFile(session.path, 'utf8')).trimEnd().split('\n');
      expect(onDisk).toHaveLength(index + 2);
      expect(JSON.parse(onDisk.at(-1) ?? '')).toEqual(stored);
    }
    assertInvariants(session, { finished: true });
    expect(await store.load(session.path)).toEqual({
      path: session.path,
      header: session.header,
      events: session.events,
    });
  });

  it('never lets time go backwards, even when the clock does', async () => {
    const session = await store.create();
    const now = vi.spyOn(Date, 'now');
    now.mockReturnValue(5_000);
    session.append(say('a'));
    now.mockReturnValue(4_000);
    expect(session.append(say('b')).time).toBe(5_000);
    now.mockReturnValue(6_000);
    expect(session.append(say('c')).time).toBe(6_000);
  });

  it('continues time from the seed, whose events may come from a later clock', async () => {
    const seed = buildLog({ startTime: Date.now() + 60_000 })
      .turn()
      .build().events;
    const session = await store.create({ seed });
    expect(session.append(say('after')).time).toBe(seed.at(-1)?.time);
  });

  it('stores a frozen deep copy, so callers cannot rewrite history', async () => {
    const session = await store.create();
    const args = { path: 'a.txt', nested: { n: 1 } };
    session.append({ type: 'turn/start', data: { turn: 1 } });
    session.append({ type: 'step/start', data: { turn: 1, step: 1 } });
    const stored = session.append({ type: 'tool/call', data: { turn: 1, step: 1, id: 'c', name: 'read', args } });
    args.nested.n = 2;
    expect(stored.data).toMatchObject({ args: { nested: { n: 1 } } });
    expect(Object.isFrozen(stored)).toBe(true);
    expect(() => {
      (stored.data as { id: string }).id = 'x';
    }).toThrow(TypeError);
  });

  it('refuses data that is not plain JSON, and writes nothing for it', async () => {
    const session = await store.create({ id: 'j' });
    session.append({ type: 'turn/start', data: { turn: 1 } });
    session.append({ type: 'step/start', data: { turn: 1, step: 1 } });
    const error = thrownBy(() =>
      session.append({ type: 'tool/call', data: { turn: 1, step: 1, id: 'c', name: 'n', args: { when: new Date() } } }),
    );
    expect(error).toMatchObject({
      code: 'INVALID_EVENT',
      message: expect.stringMatching(/tool\/call .*data\.args\.when is a Date/),
    });
    expect(session.events).toHaveLength(2);
    expect((await store.load('j')).events).toHaveLength(2);
  });

  it('refuses an event of unknown type or malformed data', async () => {
    const session = await store.create();
    const unknownType = { type: 'tool/progress', data: {} } as unknown as NewSessionEvent;
    expect(thrownBy(() => session.append(unknownType))).toMatchObject({
      code: 'INVALID_EVENT',
      message: expect.stringMatching(/unknown event type "tool\/progress"/),
    });
    const noTurn: NewSessionEvent = { type: 'turn/start', data: { turn: 0 } };
    expect(thrownBy(() => session.append(noTurn))).toMatchObject({
      code: 'INVALID_EVENT',
      message: expect.stringMatching(/turn must be a positive integer/),
    });
    expect(session.events).toEqual([]);
  });

  it('notifies listeners in order until they unsubscribe', async () => {
    const session = await store.create();
    const seen: number[] = [];
    const stop = session.onAppend((event) => seen.push(event.seq));
    session.append(say('a'));
    session.append(say('b'));
    stop();
    session.append(say('c'));
    expect(seen).toEqual([0, 1]);
  });

  it('contains a throwing or rejecting listener: the append succeeds, later listeners run, the failure is reported', async () => {
    const session = await store.create({ lineage: 'main' });
    let bothReported!: () => void;
    const reported = new Promise<void>((resolve) => (bothReported = resolve));
    const errors = vi
      .spyOn(console, 'error')
      .mockImplementation(() => void (errors.mock.calls.length === 2 && bothReported()));
    const later: number[] = [];
    session.onAppend(() => {
      throw new Error('listener bug');
    });
    session.onAppend(async () => {
      throw new Error('async listener bug');
    });
    session.onAppend((event) => later.push(event.seq));
    const stored = session.append(say('a'));
    await reported;
    expect(stored.seq).toBe(0);
    expect(later).toEqual([0]);
    expect(session.events).toHaveLength(1);
    expect(errors).toHaveBeenCalledTimes(2);
    expect(errors.mock.calls.map((call) => (call[1] as Error).message).sort()).toEqual([
      'async listener bug',
      'listener bug',
    ]);
    expect(errors.mock.calls[0]?.[0]).toMatch(/session main failed on seq 0 \(user\/message\)/);
  });

  it('a listener that appends does not reorder what other listeners see', async () => {
    const session = await store.create();
    const seen: string[] = [];
    session.onAppend((event) => {
      if (event.seq === 0) session.append(say('echo'));
    });
    session.onAppend((event) => seen.push(`${event.seq}`));
    session.append(say('first'));
    expect(seen).toEqual(['0', '1']);
    expect(session.events.map((event) => event.seq)).toEqual([0, 1]);
  });

  it('after close, append throws SESSION_CLOSED; close is idempotent and the session leaves live()', async () => {
    const session = await store.create({ id: 'c' });
    expect(store.live()).toEqual([session]);
    await session.close();
    await session.close();
    expect(session.closed).toBe(true);
    expect(store.live()).toEqual([]);
    expect(thrownBy(() => session.append(say('late')))).toMatchObject({
      code: 'SESSION_CLOSED',
      message: expect.stringMatching(/resume/),
    });
  });
});

describe('SessionStore.load, resume and list', () => {
  it('load of a missing session is SESSION_NOT_FOUND naming the path', async () => {
    const error = await rejection(store.load('nope'));
    expect(error).toMatchObject({
      code: 'SESSION_NOT_FOUND',
      message: expect.stringContaining(join(root, 'nope.jsonl')),
    });
  });

  it('load reports a crash-truncated tail without touching the file', async () => {
    const session = await store.create({ id: 'crash' });
    session.append(say('kept'));
    await session.close();
    await appendFile(session.path, '{"seq":1,"time":1,"type":"user/me');
    const before = await readFile(session.path, 'utf8');
    const loaded = await store.load('crash');
    expect(loaded.events).toHaveLength(1);
    expect(loaded.recovered).toMatchObject({ line: 3, droppedText: '{"seq":1,"time":1,"type":"user/me' });
    expect(await readFile(session.path, 'utf8')).toBe(before);
  });

  it('resume rewrites a crash-truncated file to its valid prefix, reports the drop, and appends after it', async () => {
    const session = await store.create({
      id: 'r',
      lineage: 'main/call_2',
      spawnedBy: 'call_2',
      origin: 'subagent',
      delegationDepth: 2,
    });
    session.append(say('kept'));
    await session.close();
    await appendFile(session.path, '{"seq":1,"ti');
    const { session: resumed, recovered } = await store.resume('r');
    expect(recovered).toMatchObject({ line: 3, droppedText: '{"seq":1,"ti' });
    expect(resumed.header).toEqual(session.header);
    expect(resumed.append(say('next')).seq).toBe(1);
    const reloaded = await store.load(resumed.path);
    expect(reloaded.recovered).toBeUndefined();
    expect(reloaded.events.map((event) => event.seq)).toEqual([0, 1]);
    expect(reloaded.header.delegationDepth).toBe(2);
    expect(await readdir(root)).toEqual(['r.jsonl']);
  });

  it('resume of a cleanly closed session reports nothing and continues seq and time', async () => {
    const session = await store.create({ id: 'clean' });
    const last = session.append(say('one'));
    await session.close();
    const resumed = await store.resume(session.path);
    expect(resumed.recovered).toBeUndefined();
    const next = resumed.session.append(say('two'));
    expect(next.seq).toBe(1);
    expect(next.time).toBeGreaterThanOrEqual(last.time);
    expect(Object.isFrozen(resumed.session.events[0])).toBe(true);
  });

  it('resume refuses a session already open in this store', async () => {
    await store.create({ id: 'busy' });
    expect(await rejection(store.resume('busy'))).toMatchObject({
      code: 'SESSION_EXISTS',
      message: expect.stringMatching(/already open/),
    });
  });

  it('of two concurrent resumes of one session exactly one wins', async () => {
    const session = await store.create({ id: 'twice' });
    await session.close();
    const outcomes = await Promise.allSettled([store.resume('twice'), store.resume('twice')]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === 'rejected')).toMatchObject({
      reason: { code: 'SESSION_EXISTS' },
    });
    expect(store.live()).toHaveLength(1);
  });

  it('resume refuses a file whose seq has a gap, naming the line', async () => {
    const log = buildLog({ id: 'gap' }).user('a').user('b').build();
    const broken = { header: log.header, events: [log.events[0]!, { ...log.events[1]!, seq: 5 }] };
    await writeFile(join(root, 'gap.jsonl'), serializeSessionLog(broken));
    expect(await rejection(store.resume('gap'))).toMatchObject({
      code: 'SESSION_CORRUPT',
      message: expect.stringMatching(/gap\.jsonl:3: seq 5 where 1 belongs/),
    });
  });

  it('resume of corrupt content fails with SESSION_CORRUPT and leaves the file as it was', async () => {
    const session = await store.create({ id: 'bad' });
    session.append(say('a'));
    session.append(say('b'));
    await session.close();
    const text = await readFile(session.path, 'utf8');
    const damaged = text.replace('"type":"user/message","data":{"content":[{"type":"text","text":"a"}]}', '"type":');
    await writeFile(session.path, damaged);
    expect(await rejection(store.resume('bad'))).toMatchObject({
      code: 'SESSION_CORRUPT',
      message: expect.stringMatching(/bad\.jsonl:2:/),
    });
    expect(await readFile(session.path, 'utf8')).toBe(damaged);
  });

  it('list returns every .jsonl under the root, recursively and sorted', async () => {
    expect(await new SessionStore({ root: join(root, 'missing') }).list()).toEqual([]);
    await store.create({ id: 'b' });
    await store.create({ id: 'a' });
    await mkdir(join(root, 'child-proc'));
    await writeFile(join(root, 'child-proc', 'z.jsonl'), serializeSessionLog(buildLog({ id: 'z' }).build()));
    await writeFile(join(root, 'notes.txt'), 'not a session');
    expect(await store.list()).toEqual([
      join(root, 'a.jsonl'),
      join(root, 'b.jsonl'),
      join(root, 'child-proc', 'z.jsonl'),
    ]);
  });

  it('closeAll closes every live session', async () => {
    const a = await store.create();
    const b = await store.create();
    await store.closeAll();
    expect(store.live()).toEqual([]);
    expect([a.closed, b.closed]).toEqual([true, true]);
  });
});

describe('SessionStore.discard', () => {
  it('closes a session and deletes its file, so it leaves no trace', async () => {
    const store = new SessionStore({ root });
    const session = await store.create({ lineage: 'main' });
    await store.discard(session);
    expect(session.closed).toBe(true);
    expect(await store.list()).toEqual([]);
  });
});
