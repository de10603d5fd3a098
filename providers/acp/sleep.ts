/** Resolves after `ms`; unreferenced, so a wait raced against an event never keeps the process alive. */
export function sleep(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

/** Resolves after `ms`, referenced on purpose: a parent must not exit while it still waits for its children's group. */
export function sleepReferenced(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}
