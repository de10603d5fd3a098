import type {
  AssistantBlock,
  NewSessionEvent,
  SessionEvent,
  SessionHeader,
  SessionLog,
  StepFinish,
  TurnEndReason,
  Usage,
} from './types.js';
import { SESSION_FORMAT_VERSION } from './types.js';

export interface BuildLogOptions extends Partial<Omit<SessionHeader, 'type' | 'version' | 'seedLength'>> {
  /** Inherited leading events; sets `seedLength` and turn numbering continues after them. */
  readonly seed?: readonly SessionEvent[];
  /** Time of the first new event; each later event is 1 ms later. Default: 1_700_000_000_000. */
  readonly startTime?: number;
}

export interface TurnOptions {
  /** Default `completed`. */
  readonly reason?: TurnEndReason;
  /** Leave the turn open (no `turn/end`), as a crashed or still-running turn. */
  readonly open?: boolean;
}

export interface StepOptions {
  /** Default `tool-calls` when the step called a tool, else `stop`. */
  readonly finish?: StepFinish;
  readonly usage?: Usage;
  /** Leave the step open (no `step/end`). */
  readonly open?: boolean;
}

const DEFAULT_START_TIME = 1_700_000_000_000;

const text = (value: string) => [{ type: 'text' as const, text: value }];

/** Fluent writer of VALID session logs for tests: seq, time, turn and step numbers are filled in. */
export class LogBuilder {
  private readonly header: SessionHeader;
  private readonly events: SessionEvent[];
  private time: number;
  private turnCount: number;

  constructor(options: BuildLogOptions = {}) {
    const { seed = [], startTime, ...fields } = options;
    const lastSeedTime = seed.at(-1)?.time;
    this.time = startTime ?? (lastSeedTime === undefined ? DEFAULT_START_TIME : lastSeedTime + 1);
    this.header = {
      type: 'session',
      version: SESSION_FORMAT_VERSION,
      id: 'session-1',
      createdAt: this.time,
      cwd: '/work',
      lineage: 'main',
      origin: 'user',
      delegationDepth: 0,
      ...fields,
      ...(seed.length > 0 ? { seedLength: seed.length } : {}),
    };
    this.events = [...seed];
    this.turnCount = Math.max(0, ...seed.map((event) => (event.type === 'turn/start' ? event.data.turn : 0)));
  }

  /** Appends any event as-is (stamped); for shapes the fluent methods do not cover. */
  event(event: NewSessionEvent): this {
    this.events.push({ seq: this.events.length, time: this.time++, ...event } as SessionEvent);
    return this;
  }

  user(message: string): this {
    return this.event({ type: 'user/message', data: { content: text(message) } });
  }

  /** One turn: `turn/start`, whatever `body` writes, then `turn/end` unless `open`. */
  turn(body: (turn: TurnBuilder) => void = () => undefined, options: TurnOptions = {}): this {
    const turn = ++this.turnCount;
    this.event({ type: 'turn/start', data: { turn } });
    body(new TurnBuilder(this, turn));
    if (options.open !== true) this.event({ type: 'turn/end', data: { turn, reason: options.reason ?? 'completed' } });
    return this;
  }

  build(): SessionLog {
    return { header: this.header, events: [...this.events] };
  }
}

export class TurnBuilder {
  private stepCount = 0;

  constructor(
    private readonly log: LogBuilder,
    readonly turn: number,
  ) {}

  /** One step: `step/start`, whatever `body` writes, then `step/end` unless `open`. */
  step(body: (step: StepBuilder) => void = () => undefined, options: StepOptions = {}): this {
    const step = ++this.stepCount;
    const position = { turn: this.turn, step };
    this.log.event({ type: 'step/start', data: position });
    const builder = new StepBuilder(this.log, this.turn, step);
    body(builder);
    if (options.open !== true) {
      const finish = options.finish ?? (builder.calledTools ? 'tool-calls' : 'stop');
      const usage = options.usage === undefined ? {} : { usage: options.usage };
      this.log.event({ type: 'step/end', data: { ...position, finish, ...usage } });
    }
    return this;
  }

  user(message: string): this {
    this.log.user(message);
    return this;
  }
}

export class StepBuilder {
  calledTools = false;

  constructor(
    private readonly log: LogBuilder,
    readonly turn: number,
    readonly step: number,
  ) {}

  /** An assistant message; a string is one text block. */
  assistant(content: string | readonly AssistantBlock[]): this {
    const blocks = typeof content === 'string' ? text(content) : content;
    this.log.event({ type: 'assistant/message', data: { turn: this.turn, step: this.step, content: blocks } });
    return this;
  }

  call(id: string, name: string, args: unknown = {}): this {
    this.calledTools = true;
    this.log.event({ type: 'tool/call', data: { turn: this.turn, step: this.step, id, name, args } });
    return this;
  }

  result(id: string, output: string, options: { readonly isError?: boolean } = {}): this {
    const data = { turn: this.turn, step: this.step, id, output, isError: options.isError ?? false };
    this.log.event({ type: 'tool/result', data });
    return this;
  }

  user(message: string): this {
    this.log.user(message);
    return this;
  }
}

export function buildLog(options: BuildLogOptions = {}): LogBuilder {
  return new LogBuilder(options);
}
