import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';
import type { ToolDefinition } from '../harness/tools/types.js';

const readFile: ToolDefinition<{ path: string }> = {
  name: 'read_file',
  description: 'Read a file of the project.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
  execute: ({ path }) => `contents of ${path}: hello`,
};

const deleteFile: ToolDefinition<{ path: string }> = {
  name: 'delete_file',
  description: 'Delete a file of the project.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
    additionalProperties: false,
  },
  execute: ({ path }) => `deleted ${path}`,
};

export default {
  name: 'tool-filter',
  description:
    'The child may read but not delete: delete_file is hidden from it, and when its model names it anyway the call is refused, never run.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [{ provider: 'spawn', toolFilter: { deny: ['delete_file'] } }],
  tools: [readFile as ToolDefinition<never>, deleteFile as ToolDefinition<never>],
  agent: { system: 'You are a coordinator.' },
  steps: [{ prompt: 'Have a subagent tidy up notes.txt.' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_tidy',
              name: 'subagent',
              args: { description: 'Tidy notes.txt', prompt: 'Read notes.txt and delete it if it is empty.' },
            },
          ],
        },
        { text: 'The subagent read notes.txt but was not allowed to delete it.' },
      ],
      'main/call_tidy': [
        { toolCalls: [{ id: 'call_read', name: 'read_file', args: { path: 'notes.txt' } }] },
        { toolCalls: [{ id: 'call_delete', name: 'delete_file', args: { path: 'notes.txt' } }] },
        { text: 'notes.txt says hello; I may not delete files.' },
      ],
    },
  },
  expect: {
    sessions: 2,
    turnEnd: { main: 'completed', 'main/call_tidy': 'completed' },
    toolResults: { 'main/call_tidy': ['contents of notes.txt: hello', /TOOL_DENIED/] },
  },
} satisfies ScenarioDefinition;
