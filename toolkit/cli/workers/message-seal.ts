import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Parent to worker, first on the channel and before any scenario module loads: the key the
 * worker seals its `started` and `report` messages with. Scenario code runs in the worker and
 * can call `process.send` too; what it sends without the key is not the runner's, so it can
 * neither give a verdict nor move the parent's watchdog.
 */
export interface KeyMessage {
  readonly type: 'key';
  readonly key: string;
}

/** A fresh key for one worker process. */
export function newSealKey(): string {
  return randomBytes(32).toString('hex');
}

export function isKeyMessage(value: unknown): value is KeyMessage {
  return (value as { type?: unknown } | null)?.type === 'key' && typeof (value as { key?: unknown }).key === 'string';
}

/** `message` with `seal`: an HMAC of the rest of it (as JSON, the form the IPC channel carries) under `key`. */
export function sealed<T extends object>(message: T, key: string): T & { readonly seal: string } {
  return { ...message, seal: sealOf(message, key) };
}

/** True when `message` carries the seal of its other fields under `key`: the worker's runner sent it. */
export function hasValidSeal(message: unknown, key: string): boolean {
  if (message === null || typeof message !== 'object') return false;
  const { seal, ...rest } = message as { seal?: unknown };
  if (typeof seal !== 'string') return false;
  const expected = Buffer.from(sealOf(rest, key), 'hex');
  const given = Buffer.from(seal, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function sealOf(message: object, key: string): string {
  return createHmac('sha256', key).update(JSON.stringify(message)).digest('hex');
}
