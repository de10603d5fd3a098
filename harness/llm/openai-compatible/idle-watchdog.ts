/**
 * Fires `onIdle` once when an armed wait lasts `timeoutMs`. Armed only while the adapter waits
 * on the network, so a consumer that is slow between events never trips it.
 */
export class IdleWatchdog {
  readonly #timeoutMs: number;
  readonly #onIdle: () => void;
  #timer: NodeJS.Timeout | undefined;
  #fired = false;

  constructor(timeoutMs: number, onIdle: () => void) {
    this.#timeoutMs = timeoutMs;
    this.#onIdle = onIdle;
  }

  get fired(): boolean {
    return this.#fired;
  }

  arm(): void {
    this.disarm();
    this.#timer = setTimeout(() => {
      this.#fired = true;
      this.#onIdle();
    }, this.#timeoutMs);
  }

  disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
