import { isRecord } from '../is-record.js';
import { lineageProblem } from './lineage.js';
import { SESSION_FORMAT_VERSION } from './types.js';

const optionalString = (value: unknown): boolean =>
  value === undefined || (typeof value === 'string' && value.length > 0);

/** Every way `header` fails to be a well-formed `SessionHeader`; empty when it is one. */
export function headerProblems(header: unknown): string[] {
  if (!isRecord(header)) return ['the header (line 1) must be a JSON object'];
  if (header['type'] !== 'session') return [`header.type must be "session", got ${JSON.stringify(header['type'])}`];
  const problems: string[] = [];
  if (header['version'] !== SESSION_FORMAT_VERSION) {
    problems.push(
      `header.version ${JSON.stringify(header['version'])} is not supported; this nestcast reads version ${SESSION_FORMAT_VERSION}` +
        ' (a newer version needs a newer nestcast)',
    );
  }
  if (typeof header['id'] !== 'string' || header['id'].length === 0)
    problems.push('header.id must be a non-empty string');
  if (!Number.isSafeInteger(header['createdAt']) || (header['createdAt'] as number) < 0) {
    problems.push('header.createdAt must be epoch milliseconds (a non-negative integer)');
  }
  if (typeof header['cwd'] !== 'string') problems.push('header.cwd must be a string');
  const lineage = lineageProblem(header['lineage']);
  if (lineage !== null) problems.push(`header.${lineage}`);
  if (!optionalString(header['parentSession']))
    problems.push('header.parentSession, when present, must be a non-empty string');
  problems.push(...spawnedByProblems(header['spawnedBy'], header['lineage']));
  if (header['origin'] !== 'user' && header['origin'] !== 'subagent')
    problems.push('header.origin must be "user" or "subagent"');
  if (!Number.isSafeInteger(header['delegationDepth']) || (header['delegationDepth'] as number) < 0) {
    problems.push('header.delegationDepth must be a non-negative integer');
  }
  const seedLength = header['seedLength'];
  if (seedLength !== undefined && (!Number.isSafeInteger(seedLength) || (seedLength as number) < 1)) {
    problems.push('header.seedLength, when present, must be a positive integer (omit it for an unseeded session)');
  }
  return problems;
}

function spawnedByProblems(spawnedBy: unknown, lineage: unknown): string[] {
  if (spawnedBy === undefined) return [];
  if (typeof spawnedBy !== 'string' || spawnedBy.length === 0 || spawnedBy.includes('/')) {
    return ["header.spawnedBy, when present, must be a non-empty string without '/'"];
  }
  if (typeof lineage === 'string' && !lineage.endsWith(`/${spawnedBy}`)) {
    return [`header.lineage ${JSON.stringify(lineage)} must end with "/${spawnedBy}", the session's spawnedBy`];
  }
  return [];
}
