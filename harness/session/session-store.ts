import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { HarnessError } from '../errors.js';
import { optionKeys, unknownOption } from '../option-keys.js';
import { folderTree } from '../folder-tree.js';
import { DEFAULT_LINEAGE } from './lineage.js';
import { writeFileAtomically } from '../atomic-write.js';
import { FileSession } from './file-session.js';
import { writeAllSync } from './write-all-sync.js';
import { frozenJsonCopy } from './frozen-json-copy.js';
import { headerProblems } from './header-shape.js';
import { checkInvariants } from './invariants.js';
import { parseSessionLog, serializeSessionLog } from './jsonl.js';
import type {
  CreateSessionOptions,
  LoadedSessionLog,
  ResumedSession,
  Session,
  SessionStoreOptions,
} from './store-types.js';
import { SESSION_FORMAT_VERSION, type SessionEvent, type SessionHeader } from './types.js';

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A misspelt `beforeWrite` would write session files the secret scan never saw. */
const STORE_OPTION_KEYS = optionKeys<SessionStoreOptions>({ root: true, beforeWrite: true, durable: true });
/** A misspelt `parentSession` or `seed` would write a root session that looks whole. */
const CREATE_OPTION_KEYS = optionKeys<CreateSessionOptions>({
  id: true,
  lineage: true,
  cwd: true,
  parentSession: true,
  spawnedBy: true,
  origin: true,
  delegationDepth: true,
  seed: true,
});

/** The `sessions` service: one JSONL file per session under `root`. */
export class SessionStore {
  readonly root: string;
  private readonly beforeWrite: ((path: string, text: string) => void) | undefined;
  private readonly durable: boolean;
  private readonly open = new Map<string, FileSession>();
  /** Paths being resumed right now; claimed synchronously so two resumes cannot both rewrite and open one file. */
  private readonly resuming = new Set<string>();

  constructor(options: SessionStoreOptions) {
    const unknown = unknownOption(options, STORE_OPTION_KEYS);
    if (unknown !== undefined) throw new HarnessError('INVALID_SESSION_OPTIONS', `new SessionStore: ${unknown}`);
    this.root = resolve(options.root);
    this.beforeWrite = options.beforeWrite;
    this.durable = options.durable ?? true;
  }

  async create(options: CreateSessionOptions = {}): Promise<Session> {
    const header = this.headerFor(options);
    const seed = validSeed(header, options.seed ?? []);
    const path = join(this.root, `${header.id}.jsonl`);
    let fd: number | undefined;
    try {
      const text = serializeSessionLog({ header, events: seed });
      if (this.durable) {
        await mkdir(this.root, { recursive: true });
        this.beforeWrite?.(path, text);
        await writeFileAtomically(path, text, { replace: false });
      } else {
        this.makeScratchRoot();
        this.beforeWrite?.(path, text);
        fd = createScratchFile(path, text);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      throw new HarnessError(
        'SESSION_EXISTS',
        `Session ${header.id} already exists at ${path}. Give the new session another id, or continue that one with sessions.resume(${JSON.stringify(header.id)}).`,
        { cause: error },
      );
    }
    return this.openSession(header, seed, path, fd);
  }

  private scratchRootMade = false;

  private makeScratchRoot(): void {
    if (this.scratchRootMade) return;
    mkdirSync(this.root, { recursive: true });
    this.scratchRootMade = true;
  }

  /** Reads a session file without opening it for writing. */
  async load(pathOrId: string): Promise<LoadedSessionLog> {
    const path = this.pathOf(pathOrId);
    let text: string;
    try {
      // Synchronous: the file is read whole either way, and each step of an asynchronous read is a
      // thread-pool round trip that costs more than reading a session log (a harvest reads them all).
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      throw new HarnessError(
        'SESSION_NOT_FOUND',
        `No session file at ${path} (asked for ${JSON.stringify(pathOrId)}). sessions.list() shows the sessions under ${this.root}.`,
        { cause: error },
      );
    }
    return parseSessionLog(text, path);
  }

  /** Reopens a session for appending; a crash-truncated tail is dropped from the file first and reported. */
  async resume(pathOrId: string): Promise<ResumedSession> {
    const path = this.pathOf(pathOrId);
    if (this.open.has(path) || this.resuming.has(path)) {
      throw new HarnessError(
        'SESSION_EXISTS',
        `Session ${path} is already open in this store; use that Session, or close it before resuming.`,
      );
    }
    this.resuming.add(path);
    try {
      return await this.reopen(path);
    } finally {
      this.resuming.delete(path);
    }
  }

  /** Absolute paths of every `*.jsonl` under the root, recursively, sorted. */
  async list(): Promise<string[]> {
    let entries: string[];
    try {
      entries = folderTree(this.root).map((entry) => relative(this.root, join(entry.parentPath, entry.name)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return entries
      .filter((entry) => entry.endsWith('.jsonl'))
      .map((entry) => join(this.root, entry))
      .sort();
  }

  /** Sessions open for appending right now. */
  live(): readonly Session[] {
    return [...this.open.values()];
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.live().map((session) => session.close()));
  }

  /** Closes a session that was never handed over and deletes its file: it leaves no trace. */
  async discard(session: Session): Promise<void> {
    await session.close();
    await rm(session.path, { force: true });
  }

  private async reopen(path: string): Promise<ResumedSession> {
    const loaded = await this.load(path);
    const gap = loaded.events.findIndex((event, index) => event.seq !== index);
    if (gap !== -1) {
      throw new HarnessError(
        'SESSION_CORRUPT',
        `${path}:${gap + 2}: seq ${loaded.events[gap]?.seq} where ${gap} belongs; appending would continue a broken log. Restore the file or delete it.`,
      );
    }
    if (loaded.recovered !== undefined) {
      const text = serializeSessionLog(loaded);
      this.beforeWrite?.(path, text);
      await writeFileAtomically(path, text, { replace: true });
    }
    const events = loaded.events.map((event) => frozenJsonCopy(event, path, `event ${event.seq}`));
    const session = this.openSession(frozenJsonCopy(loaded.header, path, 'header'), events, path);
    return loaded.recovered === undefined ? { session } : { session, recovered: loaded.recovered };
  }

  private openSession(
    header: SessionHeader,
    events: readonly SessionEvent[],
    path: string,
    fd: number = openSync(path, 'a'),
  ): FileSession {
    const session = new FileSession({
      header,
      events,
      path,
      fd,
      onClose: (closed) => this.open.delete(closed.path),
      ...(this.beforeWrite ? { beforeWrite: this.beforeWrite } : {}),
    });
    this.open.set(path, session);
    return session;
  }

  private pathOf(pathOrId: string): string {
    const isPath =
      isAbsolute(pathOrId) || pathOrId.includes('/') || pathOrId.includes(sep) || pathOrId.endsWith('.jsonl');
    return isPath ? resolve(pathOrId) : join(this.root, `${pathOrId}.jsonl`);
  }

  private headerFor(options: CreateSessionOptions): SessionHeader {
    const unknown = unknownOption(options, CREATE_OPTION_KEYS);
    if (unknown !== undefined)
      throw new HarnessError('INVALID_SESSION_OPTIONS', `Cannot create a session under ${this.root}: ${unknown}.`);
    const id = options.id ?? randomUUID();
    const seedLength = options.seed?.length ?? 0;
    const header: SessionHeader = Object.freeze({
      type: 'session',
      version: SESSION_FORMAT_VERSION,
      id,
      createdAt: Date.now(),
      cwd: options.cwd ?? process.cwd(),
      lineage: options.lineage ?? DEFAULT_LINEAGE,
      ...(options.parentSession === undefined ? {} : { parentSession: options.parentSession }),
      ...(options.spawnedBy === undefined ? {} : { spawnedBy: options.spawnedBy }),
      origin: options.origin ?? 'user',
      delegationDepth: options.delegationDepth ?? 0,
      ...(seedLength > 0 ? { seedLength } : {}),
    });
    const problems = headerProblems(header);
    if (!SESSION_ID.test(id))
      problems.unshift(`id ${JSON.stringify(id)} cannot name a file: use letters, digits, '.', '_' and '-'`);
    if (problems.length > 0) {
      throw new HarnessError(
        'INVALID_SESSION_OPTIONS',
        `Cannot create session ${JSON.stringify(id)} under ${this.root}: ${problems.join('; ')}.`,
      );
    }
    return header;
  }
}

/** The seed as frozen copies, or `INVALID_SEED` naming its first broken rule. */
function validSeed(header: SessionHeader, seed: readonly SessionEvent[]): SessionEvent[] {
  const where = `Cannot create session ${header.lineage} (${header.id}) from its seed`;
  const first = checkInvariants({ header, events: seed }, { finished: true }).find(
    (violation) => violation.rule !== 'header',
  );
  if (first !== undefined) {
    const at = first.seq === null ? '' : ` at seq ${first.seq}`;
    throw new HarnessError(
      'INVALID_SEED',
      `${where}: [${first.rule}]${at}: ${first.message}. A seed must be a closed log with seq from 0, such as balancedPrefix(parent.events).`,
    );
  }
  try {
    return seed.map((event, index) => frozenJsonCopy(event, where, `seed[${index}]`));
  } catch (error) {
    throw new HarnessError('INVALID_SEED', (error as Error).message, { cause: error });
  }
}

/**
 * A scratch session file (see `SessionStoreOptions.durable`): created exclusively (EEXIST if the id
 * is taken), its first lines written at once, and left open for appending. No temp file, no sync:
 * a crash can leave a cut-off line, which `load` and `resume` already recover from.
 */
function createScratchFile(path: string, text: string): number {
  const fd = openSync(path, 'ax');
  try {
    writeAllSync(fd, Buffer.from(text, 'utf8'));
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
