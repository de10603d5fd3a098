/** Fires `onIdle` once when `kick()` has not been called for `timeoutMs`. */
export class IdleWatchdog {
  readonly #timer: NodeJS.Timeout;
  #fired = false;

  constructor(timeoutMs: number, onIdle: () => void) {
    this.#timer = setTimeout(() => {
      this.#fired = true;
      onIdle();
    }, timeoutMs);
  }

  get fired(): boolean {
    return this.#fired;
  }

  kick(): void {
    if (!this.#fired) this.#timer.refresh();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }
}
