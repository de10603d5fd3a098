/** Where the harness reports what it contains (listener failures, recovered files). Always stderr by default: stdout may carry protocol frames. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export function createStderrLogger(prefix = 'nestcast', level: 'debug' | 'info' | 'warn' | 'error' = 'warn'): Logger {
  const order = ['debug', 'info', 'warn', 'error'] as const;
  const min = order.indexOf(level);
  const write = (at: (typeof order)[number]) => (message: string) => {
    if (order.indexOf(at) >= min) process.stderr.write(`${prefix} ${at}: ${message}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** Keeps every line in memory; tests assert on what was reported. */
export function createMemoryLogger(): Logger & { readonly lines: readonly string[] } {
  const lines: string[] = [];
  const write = (at: string) => (message: string) => void lines.push(`${at}: ${message}`);
  return { lines, debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
