/** Kept in step with package.json by a test. */
export const NESTCAST_VERSION = '0.1.0';
