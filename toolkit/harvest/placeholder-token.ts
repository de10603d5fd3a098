/**
 * Regular-expression source matching any token normalisation writes. Each stands for name
 * characters that were there before, so boundary checks treat a token beside a path or id as
 * part of its name; otherwise a second pass would find boundaries the first did not, and
 * normalising twice would not be a no-op.
 */
export const PLACEHOLDER_TOKEN = '<(?:cwd|sessions|tmp(?::\\d+)?|session:\\d+|uuid:\\d+)>';
