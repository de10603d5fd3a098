import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { ChatOpenAI } from '@langchain/openai';
import { z } from 'zod';
import { defineScenario } from '../toolkit/scenarios/define-scenario.js';

/**
 * A program scenario on LangGraph: a supervisor graph whose workers are tools (LangGraph's
 * tool-calling supervisor). Each agent is a `StateGraph` of a model node and a `ToolNode`; the
 * supervisor's tool node runs both worker calls of one step at once, and the researcher asks an
 * archivist worker of its own. The sessions hang from the tool calls by content.
 */
export default defineScenario({
  name: 'langgraph-supervisor',
  description:
    'Your own agent code: a LangGraph supervisor graph delegates to a researcher and a writer worker in parallel; the researcher asks an archivist worker in turn.',
  program: async ({ fetch, signal }) => {
    const llm = new ChatOpenAI({
      model: 'gpt-4.1-mini',
      apiKey: 'not-a-key',
      maxRetries: 0,
      configuration: { fetch },
    });
    /** One agent: a model node that loops through a tool node until the model answers without tool calls. */
    const agentGraph = (name: string, system: string, tools: StructuredToolInterface[] = []) => {
      const model = tools.length > 0 ? llm.bindTools(tools) : llm;
      return new StateGraph(MessagesAnnotation)
        .addNode('model', async ({ messages }) => ({
          messages: [await model.invoke([new SystemMessage(system), ...messages], { signal })],
        }))
        .addNode('tools', new ToolNode(tools))
        .addEdge(START, 'model')
        .addConditionalEdges('model', toolsCondition, ['tools', END])
        .addEdge('tools', 'model')
        .compile({ name });
    };
    /** A worker as a tool: its graph runs on the task the calling agent wrote, and its last message is the tool's result. */
    const workerTool = (worker: ReturnType<typeof agentGraph>, toolName: string, description: string) =>
      tool(
        async ({ task }: { task: string }) => {
          const state = await worker.invoke({ messages: [new HumanMessage(task)] }, { signal });
          return String(state.messages.at(-1)?.content);
        },
        { name: toolName, description, schema: z.object({ task: z.string() }) },
      );
    const archivist = agentGraph('archivist', 'You know dates from the history of science.');
    const researcher = agentGraph('researcher', 'You find facts, asking the archivist for dates.', [
      workerTool(archivist, 'ask_archivist', 'Ask the archivist for a date'),
    ]);
    const writer = agentGraph('writer', 'You write one clear sentence.');
    const supervisor = agentGraph('supervisor', 'You supervise a researcher and a writer: delegate, then answer.', [
      workerTool(researcher, 'research', 'Give the researcher a question'),
      workerTool(writer, 'write', 'Give the writer a sentence to write'),
    ]);
    const state = await supervisor.invoke(
      { messages: [new HumanMessage('Who first measured the speed of light, and why does it matter?')] },
      { signal },
    );
    return String(state.messages.at(-1)?.content);
  },
  script: {
    model: 'gpt-4.1-mini',
    lineages: {
      main: [
        {
          toolCalls: [
            { id: 'call_sources', name: 'research', args: { task: 'Who first measured the speed of light?' } },
            { id: 'call_draft', name: 'write', args: { task: 'One sentence on why the speed of light matters.' } },
          ],
        },
        { text: 'Ole Rømer first measured it, in 1676; it sets the pace of everything we see.' },
      ],
      'main/call_sources': [
        {
          toolCalls: [
            { id: 'call_date', name: 'ask_archivist', args: { task: 'When did Rømer time the moons of Jupiter?' } },
          ],
        },
        { text: 'Ole Rømer, in 1676.' },
      ],
      'main/call_sources/call_date': [{ text: 'Rømer timed the eclipses of Io in 1676.' }],
      'main/call_draft': [{ text: 'The speed of light sets the pace of everything we see.' }],
    },
  },
  expect: {
    sessions: 4,
    turnEnd: { main: 'completed', 'main/call_sources': 'completed', 'main/call_draft': 'completed' },
    output: {
      main: /Rømer .*1676/,
      'main/call_sources': 'Ole Rømer, in 1676.',
      'main/call_sources/call_date': 'eclipses of Io',
      'main/call_draft': 'pace of everything',
    },
    toolResults: {
      main: ['Ole Rømer, in 1676.', 'The speed of light sets the pace of everything we see.'],
      'main/call_sources': ['Rømer timed the eclipses of Io in 1676.'],
    },
    result: (answer) => answer === 'Ole Rømer first measured it, in 1676; it sets the pace of everything we see.',
  },
});
