import { terminalSafe } from './terminal-text.js';

/** Where a command writes, and what it reads from its environment: injectable so tests run commands in-process. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Colours only on a terminal and never with NO_COLOR set. */
  readonly color: boolean;
}

export function processIo(): CliIo {
  const env = process.env;
  const color = wantsColor(env, process.stdout.isTTY === true);
  return {
    stdout: (text) => void process.stdout.write(terminalSafe(text, color)),
    stderr: (text) => void process.stderr.write(terminalSafe(text, color)),
    env,
    cwd: process.cwd(),
    color,
  };
}

export function wantsColor(env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return true;
  return isTty;
}

export interface Paint {
  readonly green: (text: string) => string;
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

export function paint(color: boolean): Paint {
  const wrap = (open: number, close: number) => (text: string) =>
    color ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return { green: wrap(32, 39), red: wrap(31, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}
