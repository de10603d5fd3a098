import type { ScenarioDefinition } from '../toolkit/scenarios/types.js';

export default {
  name: 'structured-output',
  description:
    'The child must report through structured_output; the capture is validated against the schema and reaches the parent as JSON.',
  providers: [{ kind: 'spawn' }],
  subagentTools: [
    {
      provider: 'spawn',
      outputSchema: {
        type: 'object',
        properties: { city: { type: 'string' }, population: { type: 'integer', minimum: 0 } },
        required: ['city', 'population'],
        additionalProperties: false,
      },
    },
  ],
  agent: { system: 'You are a coordinator.' },
  steps: [{ prompt: 'What is the largest city in Canada and how many people live there?' }],
  script: {
    lineages: {
      main: [
        {
          toolCalls: [
            {
              id: 'call_city',
              name: 'subagent',
              args: { description: 'Largest Canadian city', prompt: 'Largest city in Canada and its population.' },
            },
          ],
        },
        { text: 'Toronto, with about 2.8 million people.' },
      ],
      'main/call_city': [
        { toolCalls: [{ id: 'call_bad', name: 'structured_output', args: { city: 'Toronto', population: 'lots' } }] },
        { toolCalls: [{ id: 'call_good', name: 'structured_output', args: { city: 'Toronto', population: 2794356 } }] },
        { text: 'Reported.' },
      ],
    },
  },
  expect: {
    sessions: 2,
    turnEnd: { main: 'completed', 'main/call_city': 'completed' },
    toolResults: { main: ['{"city":"Toronto","population":2794356}'], 'main/call_city': [/INVALID_TOOL_ARGS/] },
  },
} satisfies ScenarioDefinition;
