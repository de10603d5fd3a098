/**
 * Sends updates strictly in order and lets the prompt answer wait for them: a `session/prompt`
 * response that overtook its last chunk would lose text on the client.
 */
export class UpdateQueue {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly onFailure: (error: unknown) => void) {}

  push(send: () => Promise<void>): void {
    this.tail = this.tail.then(send).catch(this.onFailure);
  }

  /** Settles once everything pushed so far was sent (or failed). */
  drained(): Promise<void> {
    return this.tail;
  }
}
