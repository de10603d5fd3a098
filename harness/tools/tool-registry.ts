import { HarnessError } from '../errors.js';
import type { Disposer } from '../runtime/disposer.js';
import { compileSchema } from '../schema.js';
import type { ToolDefinition, ToolRestriction } from './types.js';
import { ToolView } from './tool-view.js';

type AnyTool = ToolDefinition<never>;

/** Global tools, by unique name. Agents see them through a `ToolView`. */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();

  /** Registers a tool; the disposer removes it. A name already taken is refused. */
  register<Args>(tool: ToolDefinition<Args>): Disposer {
    if (this.tools.has(tool.name)) {
      throw new HarnessError(
        'DUPLICATE_TOOL',
        `a tool named "${tool.name}" is already registered; give the second one a distinct name`,
      );
    }
    compileSchema(tool.parameters);
    const entry = tool as unknown as AnyTool;
    this.tools.set(tool.name, entry);
    return () => {
      if (this.tools.get(tool.name) === entry) this.tools.delete(tool.name);
    };
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /**
   * What one agent sees: the global tools its restriction lets through, plus tools of its own
   * (`extra`, e.g. a child's `structured_output`), which the restriction does not filter.
   */
  view(options: { restriction?: ToolRestriction; extra?: readonly ToolDefinition<never>[] } = {}): ToolView {
    return new ToolView(this, options.restriction ?? {}, options.extra ?? []);
  }
}
