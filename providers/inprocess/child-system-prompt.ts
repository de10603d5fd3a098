const BASE_INSTRUCTION =
  'You are a subagent: another agent delegated one task to you. Work on it with the tools you have. ' +
  'When you are done, reply with your final answer as plain text; that reply is all the delegating agent receives.';

export const STRUCTURED_OUTPUT_INSTRUCTION =
  'When your answer is complete, you MUST report it by calling the structured_output tool exactly once, with ' +
  'arguments that match its parameter schema. Only that call counts as your result.';

/** The child's own system prompt: the base instruction, then a persona section, then the structured-output rule. */
export function childSystemPrompt(options: { readonly persona?: string; readonly structured: boolean }): string {
  const sections = [BASE_INSTRUCTION];
  if (options.persona !== undefined) sections.push(`# Persona\n\n${options.persona}`);
  if (options.structured) sections.push(STRUCTURED_OUTPUT_INSTRUCTION);
  return sections.join('\n\n');
}
