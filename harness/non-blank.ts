/** The value, or undefined when it is missing or only whitespace (an empty env variable counts as unset). */
export function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
