export type Disposer = () => void | Promise<void>;

/** Wraps a disposer so it runs at most once; later calls return the first call's promise. */
export function once(disposer: Disposer): () => Promise<void> {
  let settled: Promise<void> | undefined;
  return () => (settled ??= Promise.resolve().then(disposer));
}
