import type { ToolDefinition } from '../tools/types.js';
import type { TaskRuntime } from './task-runtime.js';
import type { TaskInfo, TaskOutcome } from './types.js';

/** How a task reads to the model: its output (if any) and a status line it can act on. */
export function renderTaskOutcome(outcome: TaskOutcome): string {
  const body = outcome.output !== undefined && outcome.output !== '' ? outcome.output : '(no output)';
  const status = outcome.status === 'failed' && outcome.detail ? `failed, ${outcome.detail}` : outcome.status;
  return `${body}\n[status: ${status}]`;
}

function ownedTask(tasks: TaskRuntime, id: string, agentId: string): TaskInfo | string {
  const info = tasks.get(id);
  if (!info || info.owner !== agentId) {
    const mine = tasks.list(agentId).map((task) => task.id);
    return `Error: you have no task "${id}"; your tasks: ${mine.join(', ') || 'none'}`;
  }
  return info;
}

/** `task_list`, `task_output {id, wait?}`, `task_kill {id}`: an agent sees and controls only its own tasks. */
export function taskTools(tasks: TaskRuntime): ToolDefinition<never>[] {
  const list: ToolDefinition<Record<string, never>> = {
    name: 'task_list',
    description: 'List your background tasks with their status.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    execute: (_args, execution) => {
      const mine = tasks.list(execution.agentId);
      if (mine.length === 0) return '(no tasks)';
      return mine.map((task) => `${task.id} [${task.status}] ${task.kind}: ${task.label}`).join('\n');
    },
  };
  const output: ToolDefinition<{ id: string; wait?: boolean }> = {
    name: 'task_output',
    description: 'Read the output of one of your background tasks. With wait: true, wait until it has finished.',
    parameters: {
      type: 'object',
      properties: { id: { type: 'string' }, wait: { type: 'boolean' } },
      required: ['id'],
      additionalProperties: false,
    },
    execute: async ({ id, wait }, execution) => {
      const info = ownedTask(tasks, id, execution.agentId);
      if (typeof info === 'string') return { output: info, isError: true };
      if (info.status === 'running' && !wait) return '(still running)\n[status: running]';
      return renderTaskOutcome(await tasks.wait(id));
    },
  };
  const kill: ToolDefinition<{ id: string }> = {
    name: 'task_kill',
    description: 'Stop one of your background tasks.',
    parameters: {
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
      additionalProperties: false,
    },
    execute: async ({ id }, execution) => {
      const info = ownedTask(tasks, id, execution.agentId);
      if (typeof info === 'string') return { output: info, isError: true };
      const outcome = await tasks.kill(id, 'killed by task_kill');
      return `task ${id} stopped\n[status: ${outcome.status}]`;
    },
  };
  return [list, output, kill] as unknown as ToolDefinition<never>[];
}
