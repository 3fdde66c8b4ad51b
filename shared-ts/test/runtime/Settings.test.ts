// Settings mean what they say: one place decides each timeout, an explicit value always wins over
// the default, two different explicit values are a config error, and bad values are refused.
import { describe, expect, it } from 'vitest'
import {
  AgentHook,
  AgentHookPipeline,
  AgentRuntime,
  AgentRuntimeConfig,
  ArkAgentError,
  DEFAULT_HOOK_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  ErrorCodes,
  ErrorLayer,
  RunStatus,
  ScriptedProvider,
  ScriptedTurn,
  ToolCallHookContext,
  ToolCallHookResult,
  ToolRegistry,
  ToolRiskLevel
} from '../../src/index'
import { CountingTool, toolMessage } from './helpers'

function config(hooks?: AgentHookPipeline, tools?: ToolRegistry, turns: ScriptedTurn[] = [ScriptedTurn.text('hi')]): AgentRuntimeConfig {
  const cfg = new AgentRuntimeConfig('settings', new ScriptedProvider(turns))
  if (hooks !== undefined) cfg.hooks = hooks
  if (tools !== undefined) cfg.tools = tools
  return cfg
}

function refusal(f: () => unknown): ArkAgentError {
  try {
    f()
  } catch (e) {
    return e as ArkAgentError
  }
  throw new Error('expected invalid_config')
}

class Hang extends AgentHook {
  async beforeToolCall(ctx: ToolCallHookContext): Promise<ToolCallHookResult> {
    return new Promise<ToolCallHookResult>(() => {})
  }
}

describe('hook timeout', () => {
  it('the pipeline\'s own value is kept when the config names none (it used to be overwritten by 30 s)', () => {
    const hooks = new AgentHookPipeline([], 300)
    new AgentRuntime(config(hooks))
    expect(hooks.hookTimeoutMs).toBe(300)
  })

  it('a pipeline set through its setter keeps that value too', () => {
    const hooks = new AgentHookPipeline([])
    hooks.hookTimeoutMs = 0
    new AgentRuntime(config(hooks))
    expect(hooks.hookTimeoutMs).toBe(0)
  })

  it('the config value applies to a pipeline with no value of its own; the default otherwise', () => {
    const a = new AgentHookPipeline([])
    const cfg = config(a)
    cfg.hookTimeoutMs = 120
    new AgentRuntime(cfg)
    expect(a.hookTimeoutMs).toBe(120)
    const b = new AgentHookPipeline([])
    new AgentRuntime(config(b))
    expect(b.hookTimeoutMs).toBe(DEFAULT_HOOK_TIMEOUT_MS)
  })

  it('the same value in both places is fine; two different values are invalid_config naming both', () => {
    const same = config(new AgentHookPipeline([], 500))
    same.hookTimeoutMs = 500
    new AgentRuntime(same)
    const clash = config(new AgentHookPipeline([], 500))
    clash.hookTimeoutMs = 900
    const e = refusal(() => new AgentRuntime(clash))
    expect({ code: e.code, layer: e.layer }).toEqual({ code: ErrorCodes.invalidConfig, layer: ErrorLayer.config })
    expect(e.message).toContain('500')
    expect(e.message).toContain('900')
  })

  it('the explicit bound is the one enforced', async () => {
    const t = new CountingTool('t')
    const cfg = config(new AgentHookPipeline([new Hang()], 40), new ToolRegistry([t.tool]),
      [ScriptedTurn.text('').call('c', 't', '{}'), ScriptedTurn.text('done')])
    const outcome = await new AgentRuntime(cfg).run('go')
    expect(outcome.error?.code).toBe(ErrorCodes.hookTimeout)
    expect(outcome.error?.message).toContain('40 ms')
  })
})

describe('tool timeout', () => {
  it('the registry\'s own value is kept when the config names none (it used to be overwritten by 60 s)', async () => {
    const slow = new CountingTool('slow', ToolRiskLevel.safe, () => new Promise<string>(() => {}))
    const tools = new ToolRegistry([slow.tool], 30)
    const rt = new AgentRuntime(config(undefined, tools, [ScriptedTurn.text('').call('c', 'slow', '{}'), ScriptedTurn.text('done')]))
    expect(tools.timeoutMs).toBe(30)
    expect((await rt.run('go')).status).toBe(RunStatus.completed)
    expect(toolMessage(rt.snapshot().history, 'c').errorCode).toBe(ErrorCodes.toolTimeout)
    expect(toolMessage(rt.snapshot().history, 'c').text()).toContain('30 ms')
  })

  it('config value, default, and a clash', () => {
    const a = new ToolRegistry([])
    const cfg = config(undefined, a)
    cfg.toolTimeoutMs = 5000
    new AgentRuntime(cfg)
    expect(a.timeoutMs).toBe(5000)
    const b = new ToolRegistry([])
    new AgentRuntime(config(undefined, b))
    expect(b.timeoutMs).toBe(DEFAULT_TOOL_TIMEOUT_MS)
    const clash = config(undefined, new ToolRegistry([], 10))
    clash.toolTimeoutMs = 20
    expect(refusal(() => new AgentRuntime(clash)).code).toBe(ErrorCodes.invalidConfig)
  })
})

describe('bad values are refused where they are set', () => {
  for (const bad of [-1, NaN, Infinity, '100' as unknown as number]) {
    it(`a timeout of ${String(bad)} (${typeof bad})`, () => {
      expect(refusal(() => new AgentHookPipeline([], bad)).code).toBe(ErrorCodes.invalidConfig)
      expect(refusal(() => new ToolRegistry([], bad)).code).toBe(ErrorCodes.invalidConfig)
      const p = new AgentHookPipeline([])
      expect(refusal(() => { p.hookTimeoutMs = bad }).code).toBe(ErrorCodes.invalidConfig)
      const cfg = config()
      cfg.hookTimeoutMs = bad
      expect(refusal(() => new AgentRuntime(cfg)).code).toBe(ErrorCodes.invalidConfig)
    })
  }

  it('maxTurns below 1, maxModelRetries below 0, fractional counts and an empty session id', () => {
    const cases: Array<(c: AgentRuntimeConfig) => void> = [
      (c) => { c.maxTurns = 0 }, (c) => { c.maxTurns = 2.5 }, (c) => { c.maxModelRetries = -1 },
      (c) => { c.maxModelRetries = NaN }
    ]
    for (const apply of cases) {
      const cfg = config()
      apply(cfg)
      expect(refusal(() => new AgentRuntime(cfg)).code).toBe(ErrorCodes.invalidConfig)
    }
    expect(refusal(() => new AgentRuntime(new AgentRuntimeConfig('', new ScriptedProvider([])))).code)
      .toBe(ErrorCodes.invalidConfig)
  })
})
