import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolDefinition, ToolExecution } from './types.js';

const execution = (signal = new AbortController().signal): ToolExecution => ({
  callId: 'call_1',
  signal,
  agentId: 'a1',
  lineage: 'main',
});

function echoTool(name = 'echo', calls: unknown[] = []): ToolDefinition<{ text: string }> {
  return {
    name,
    description: 'Echo the text back.',
    parameters: {
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    },
    execute: (args) => {
      calls.push(args);
      return `echo: ${args.text}`;
    },
  };
}

describe('ToolRegistry and ToolView', () => {
  it('refuses a second tool with a taken name and keeps the first', () => {
    const tools = new ToolRegistry();
    tools.register(echoTool());
    expect(() => tools.register(echoTool())).toThrow(HarnessError);
    expect(() => tools.register(echoTool())).toThrow(/already registered/);
    expect(tools.names()).toEqual(['echo']);
  });

  it('removes a tool when its disposer runs', () => {
    const tools = new ToolRegistry();
    const remove = tools.register(echoTool());
    remove();
    expect(tools.has('echo')).toBe(false);
  });

  it('runs a tool with valid arguments and returns its output', async () => {
    const tools = new ToolRegistry();
    tools.register(echoTool());
    expect(await tools.view().execute({ name: 'echo', args: { text: 'hi' } }, execution())).toEqual({
      output: 'echo: hi',
      isError: false,
    });
  });

  it('answers invalid arguments with an error result and never runs the tool', async () => {
    const tools = new ToolRegistry();
    const calls: unknown[] = [];
    tools.register(echoTool('echo', calls));
    const result = await tools.view().execute({ name: 'echo', args: { text: 42, extra: true } }, execution());
    expect(result.isError).toBe(true);
    expect(result.output).toContain('INVALID_TOOL_ARGS');
    expect(result.output).toContain('/text must be string');
    expect(calls).toEqual([]);
  });

  it('hides a denied tool from the model and refuses to run it when the model names it anyway', async () => {
    const tools = new ToolRegistry();
    const calls: unknown[] = [];
    tools.register(echoTool('echo', calls));
    tools.register(echoTool('shout'));
    const view = tools.view({ restriction: { deny: ['echo'] } });
    expect(view.specs().map((spec) => spec.name)).toEqual(['shout']);
    const result = await view.execute({ name: 'echo', args: { text: 'hi' } }, execution());
    expect(result).toEqual({
      isError: true,
      output: 'Error: tool "echo" is not available to this agent (TOOL_DENIED)',
    });
    expect(calls).toEqual([]);
  });

  it('shows only allowed tools, with deny winning over allow', () => {
    const tools = new ToolRegistry();
    for (const name of ['a', 'b', 'c']) tools.register(echoTool(name));
    expect(
      tools
        .view({ restriction: { allow: ['a', 'b'], deny: ['b'] } })
        .specs()
        .map((spec) => spec.name),
    ).toEqual(['a']);
  });

  it('adds an agent’s own tools to its view without registering them globally', () => {
    const tools = new ToolRegistry();
    tools.register(echoTool('a'));
    const view = tools.view({
      restriction: { allow: [] },
      extra: [echoTool('structured_output') as unknown as ToolDefinition<never>],
    });
    expect(view.specs().map((spec) => spec.name)).toEqual(['structured_output']);
    expect(tools.has('structured_output')).toBe(false);
  });

  it('names the available tools when the model calls one that does not exist', async () => {
    const tools = new ToolRegistry();
    tools.register(echoTool());
    const result = await tools.view().execute({ name: 'nope', args: {} }, execution());
    expect(result.output).toBe('Error: there is no tool named "nope" (UNKNOWN_TOOL); available: echo');
  });

  it('turns a tool that throws into an error result', async () => {
    const tools = new ToolRegistry();
    tools.register({
      name: 'fails',
      description: 'Always fails.',
      parameters: { type: 'object' },
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    expect(await tools.view().execute({ name: 'fails', args: {} }, execution())).toEqual({
      isError: true,
      output: 'Error: disk on fire',
    });
  });

  it('sees tools registered after the view was made', () => {
    const tools = new ToolRegistry();
    const view = tools.view();
    tools.register(echoTool());
    expect(view.specs().map((spec) => spec.name)).toEqual(['echo']);
  });
});
