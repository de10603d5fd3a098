import { describe, expect, it } from 'vitest';
import { EventBus } from '../runtime/event-bus.js';
import type { HarnessEvents } from '../runtime/events.js';
import { createMemoryLogger } from '../runtime/logger.js';
import { ToolRegistry } from '../tools/tool-registry.js';
import { TaskRuntime } from './task-runtime.js';
import { taskTools } from './task-tools.js';
import type { TaskOutcome } from './types.js';

function controllable() {
  let settle!: (outcome: TaskOutcome) => void;
  const done = new Promise<TaskOutcome>((resolve) => (settle = resolve));
  const cancelled: (string | undefined)[] = [];
  return {
    done,
    settle,
    cancelled,
    cancel: (reason?: string) => {
      cancelled.push(reason);
      settle({ status: 'killed' });
    },
  };
}

function setup() {
  const tasks = new TaskRuntime(new EventBus<HarnessEvents>(createMemoryLogger()));
  const registry = new ToolRegistry();
  for (const tool of taskTools(tasks)) registry.register(tool);
  const view = registry.view();
  const call = (name: string, args: unknown, agentId = 'owner') =>
    view.execute({ name, args }, { callId: 'c', signal: new AbortController().signal, agentId, lineage: 'main' });
  return { tasks, call };
}

describe('TaskRuntime and the task tools', () => {
  it('registers synchronously with an id the model can use at once', () => {
    const { tasks } = setup();
    const work = controllable();
    const info = tasks.register({
      kind: 'subagent',
      label: 'research',
      owner: 'owner',
      cancel: work.cancel,
      done: work.done,
    });
    expect(info).toMatchObject({ id: 'subagent-1', status: 'running', owner: 'owner' });
    expect(
      tasks.register({ kind: 'subagent', label: 'x', owner: 'owner', cancel: work.cancel, done: work.done }).id,
    ).toBe('subagent-2');
  });

  it('reports a running task without waiting, and its output once it completes', async () => {
    const { tasks, call } = setup();
    const work = controllable();
    const { id } = tasks.register({
      kind: 'subagent',
      label: 'research',
      owner: 'owner',
      cancel: work.cancel,
      done: work.done,
    });
    expect((await call('task_output', { id })).output).toBe('(still running)\n[status: running]');
    const waited = call('task_output', { id, wait: true });
    work.settle({ status: 'completed', output: 'the answer' });
    expect((await waited).output).toBe('the answer\n[status: completed]');
    expect((await call('task_list', {})).output).toBe('subagent-1 [completed] subagent: research');
  });

  it('kills a task with task_kill and reports it killed', async () => {
    const { tasks, call } = setup();
    const work = controllable();
    const { id } = tasks.register({
      kind: 'subagent',
      label: 'slow',
      owner: 'owner',
      cancel: work.cancel,
      done: work.done,
    });
    expect((await call('task_kill', { id })).output).toBe(`task ${id} stopped\n[status: killed]`);
    expect(work.cancelled).toEqual(['killed by task_kill']);
  });

  it('shows an agent only its own tasks', async () => {
    const { tasks, call } = setup();
    const work = controllable();
    const { id } = tasks.register({
      kind: 'subagent',
      label: 'mine',
      owner: 'owner',
      cancel: work.cancel,
      done: work.done,
    });
    const result = await call('task_kill', { id }, 'stranger');
    expect(result).toEqual({ isError: true, output: `Error: you have no task "${id}"; your tasks: none` });
    expect(work.cancelled).toEqual([]);
    expect((await call('task_list', {}, 'stranger')).output).toBe('(no tasks)');
  });

  it('kills every task of an owner on teardown and waits for them to stop', async () => {
    const { tasks } = setup();
    const a = controllable();
    const b = controllable();
    const other = controllable();
    tasks.register({ kind: 'subagent', label: 'a', owner: 'owner', cancel: a.cancel, done: a.done });
    tasks.register({ kind: 'subagent', label: 'b', owner: 'owner', cancel: b.cancel, done: b.done });
    tasks.register({ kind: 'subagent', label: 'c', owner: 'someone-else', cancel: other.cancel, done: other.done });
    await tasks.killOwnedBy('owner');
    expect(tasks.list('owner').map((task) => task.status)).toEqual(['killed', 'killed']);
    expect(tasks.list('someone-else')[0]?.status).toBe('running');
  });

  it('records a task whose done promise rejects as failed', async () => {
    const { tasks } = setup();
    const { id } = tasks.register({
      kind: 'job',
      label: 'x',
      owner: 'o',
      cancel: () => undefined,
      done: Promise.reject(new Error('crashed')),
    });
    expect(await tasks.wait(id)).toEqual({ status: 'failed', detail: 'crashed' });
  });

  it('refuses an unknown task id with a message listing the known ones', () => {
    const { tasks } = setup();
    expect(() => tasks.wait('nope')).toThrow('there is no task "nope"; known tasks: none');
  });
});
