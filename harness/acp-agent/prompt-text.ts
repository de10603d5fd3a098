import { RequestError, type ContentBlock } from '@agentclientprotocol/sdk';

/**
 * The user message of an ACP prompt. Text blocks are kept; a resource link (which every ACP agent
 * must accept) becomes a line naming it; other kinds are refused, as `initialize` advertised.
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  return blocks
    .map((block) => {
      if (block.type === 'text') return block.text;
      if (block.type === 'resource_link') return `[${block.name}](${block.uri})`;
      throw RequestError.invalidParams(
        { blockType: block.type },
        `prompt blocks of type "${block.type}" are not supported; send text`,
      );
    })
    .join('\n');
}
