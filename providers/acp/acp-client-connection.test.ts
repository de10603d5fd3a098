import { expect, test } from 'vitest';
import type { PermissionOption } from '@agentclientprotocol/sdk';
import { permissionOutcome } from './acp-client-connection.js';

const offered: PermissionOption[] = [
  { optionId: 'never', name: 'Never', kind: 'reject_always' },
  { optionId: 'always', name: 'Always', kind: 'allow_always' },
  { optionId: 'once', name: 'Once', kind: 'allow_once' },
];

test('the allow policy selects the first allow-shaped option the child offers', () => {
  expect(permissionOutcome('allow', offered)).toEqual({ outcome: 'selected', optionId: 'always' });
});

test('the reject policy cancels every permission request', () => {
  expect(permissionOutcome('reject', offered)).toEqual({ outcome: 'cancelled' });
});

test('the allow policy cancels when no allow option is offered', () => {
  expect(permissionOutcome('allow', [{ optionId: 'no', name: 'No', kind: 'reject_once' }])).toEqual({
    outcome: 'cancelled',
  });
});
