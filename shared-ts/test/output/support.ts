// Shared pieces of the structured-output tests: a schema, runtimes over a ScriptedProvider, a recorder.
import {
  AgentHook,
  AgentHookPipeline,
  AgentRuntime,
  AgentRuntimeConfig,
  BusEvent,
  CallbackObserver,
  FunctionTool,
  LoopDetector,
  LoopDetectorOptions,
  ModelProvider,
  OutputSchema,
  StateStorage,
  ToolDefinition,
  ToolRegistry,
  ToolRiskLevel
} from '../../src/index'

export const TICKET = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1 },
    priority: { enum: ['low', 'high'] },
    tags: { type: 'array', items: { type: 'string' } }
  },
  required: ['title', 'priority'],
  additionalProperties: false
}

export const VALID = '{"title":"Printer on fire","priority":"high","tags":["hw"]}'

export const ticketSchema = (name = 'ticket'): OutputSchema => OutputSchema.fromJson(TICKET, name)

export interface RuntimeOptions {
  schema?: OutputSchema
  hooks?: AgentHook[]
  storage?: StateStorage
  repairs?: number
  maxTurns?: number
  partial?: boolean
  loop?: boolean
  sessionId?: string
  autoResume?: boolean
}

export const lookup = new FunctionTool(new ToolDefinition('lookup', 'look a thing up', { type: 'object' }),
  async () => 'found it')
export const deploy = new FunctionTool(new ToolDefinition('deploy', 'deploy', { type: 'object' }, ToolRiskLevel.dangerous),
  async () => 'deployed')

export function runtime(provider: ModelProvider, o: RuntimeOptions = {}): AgentRuntime {
  const cfg = new AgentRuntimeConfig(o.sessionId ?? 'so-session', provider)
  cfg.tools = new ToolRegistry([lookup, deploy])
  cfg.hooks = new AgentHookPipeline(o.hooks ?? [])
  cfg.outputSchema = 'schema' in o ? o.schema : ticketSchema()
  cfg.storage = o.storage
  if (o.repairs !== undefined) cfg.maxOutputRepairs = o.repairs
  if (o.maxTurns !== undefined) cfg.maxTurns = o.maxTurns
  if (o.partial !== undefined) cfg.partialOutput = o.partial
  if (o.loop === true) cfg.loopDetector = new LoopDetector(new LoopDetectorOptions())
  if (o.autoResume !== undefined) cfg.autoResume = o.autoResume
  return new AgentRuntime(cfg)
}

export class Recorder {
  readonly events: BusEvent[] = []
  readonly observer = new CallbackObserver((e) => { this.events.push(e) })
  types(): string[] {
    return this.events.map((e) => e.eventType())
  }
  of<T extends BusEvent>(type: string): T[] {
    return this.events.filter((e) => e.eventType() === type) as T[]
  }
}
