/**
 * The body of every call each session sent, in arrival order. Kept as sent and parsed only when a
 * test asks (`requests()`): a call served is not slowed by a parse nobody may read.
 */
export class RequestLog {
  #bodies = new Map<string, string[]>();

  add(lineage: string, body: string): void {
    const bodies = this.#bodies.get(lineage);
    if (bodies) bodies.push(body);
    else this.#bodies.set(lineage, [body]);
  }

  /** Each body parsed from JSON, or its text when it is not JSON. */
  requests(lineage: string): unknown[] {
    return (this.#bodies.get(lineage) ?? []).map(parsedBody);
  }

  clear(): void {
    this.#bodies = new Map();
  }
}

function parsedBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
