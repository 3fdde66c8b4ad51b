// The runtime config: its documented defaults, and every refusal when a runtime is built, with the
// exact invalid_config message naming the setting.
import { describe, expect, it } from 'vitest'
import {
  AgentController,
  AgentHookPipeline,
  AgentRuntime,
  AgentRuntimeConfig,
  ArkAgentError,
  ErrorCodes,
  ErrorLayer,
  ErrorRetryability,
  ModelProvider,
  ScriptedProvider,
  ScriptedTurn,
  ToolRegistry
} from '../../src/index'

function refusal(build: () => unknown): ArkAgentError {
  try {
    build()
  } catch (e) {
    return e as ArkAgentError
  }
  throw new Error('expected invalid_config')
}

function cfg(apply: (c: AgentRuntimeConfig) => void = () => {}): AgentRuntimeConfig {
  const c = new AgentRuntimeConfig('cfg', new ScriptedProvider([ScriptedTurn.text('hi')]))
  apply(c)
  return c
}

describe('defaults', () => {
  it('a config names only its session and provider; everything else has its documented default', () => {
    const provider = new ScriptedProvider([])
    const c = new AgentRuntimeConfig('abc', provider)
    expect(c.sessionId).toBe('abc')
    expect(c.provider).toBe(provider)
    expect(c.tools).toBeInstanceOf(ToolRegistry)
    expect(c.tools.definitions()).toEqual([])
    expect(c.hooks).toBeInstanceOf(AgentHookPipeline)
    expect(c.hooks.size()).toBe(0)
    expect(c.controller).toBeInstanceOf(AgentController)
    expect(c.storage).toBeUndefined()
    expect(c.systemPrompt).toBe('')
    expect(c.model).toBe('')
    expect(c.maxTurns).toBe(25)
    expect(c.maxModelRetries).toBe(2)
    expect(c.hookTimeoutMs).toBeUndefined()
    expect(c.toolTimeoutMs).toBeUndefined()
    expect(c.planMode).toBe(false)
    expect(c.loopDetector).toBeUndefined()
    expect(c.autoResume).toBe(true)
    expect(c.loopWarning).toBe('You appear to be repeating the same actions without progress. ' +
      'Stop repeating them: change your approach or give your final answer.')
    // Two configs never share their registry, pipeline or controller.
    const other = new AgentRuntimeConfig('def', provider)
    expect(other.tools).not.toBe(c.tools)
    expect(other.hooks).not.toBe(c.hooks)
    expect(other.controller).not.toBe(c.controller)
  })

  it('the smallest allowed counts and zero timeouts are accepted', () => {
    const c = cfg((x) => { x.maxTurns = 1; x.maxModelRetries = 0; x.hookTimeoutMs = 0; x.toolTimeoutMs = 0 })
    const rt = new AgentRuntime(c)
    expect(rt.sessionId).toBe('cfg')
    expect(c.hooks.hookTimeoutMs).toBe(0)
    expect(c.tools.timeoutMs).toBe(0)
  })
})

describe('refusals', () => {
  it.each<[string, (c: AgentRuntimeConfig) => void, string]>([
    ['maxTurns 0', (c) => { c.maxTurns = 0 }, 'maxTurns must be an integer of at least 1; got 0'],
    ['maxTurns 1.5', (c) => { c.maxTurns = 1.5 }, 'maxTurns must be an integer of at least 1; got 1.5'],
    ['maxModelRetries -1', (c) => { c.maxModelRetries = -1 }, 'maxModelRetries must be an integer of at least 0; got -1'],
    ['hookTimeoutMs -5', (c) => { c.hookTimeoutMs = -5 },
      'hookTimeoutMs must be a number of milliseconds from 0 (disables it) to 2147483647 (what a timer can hold); got -5'],
    ['toolTimeoutMs NaN', (c) => { c.toolTimeoutMs = NaN },
      'toolTimeoutMs must be a number of milliseconds from 0 (disables it) to 2147483647 (what a timer can hold); got NaN'],
    ['hook timeout twice', (c) => { c.hooks = new AgentHookPipeline([], 500); c.hookTimeoutMs = 900 },
      'The hook timeout is set twice: 500 ms on the pipeline and hookTimeoutMs 900 ms in the config; set it in one place'],
    ['tool timeout twice', (c) => { c.tools = new ToolRegistry([], 10); c.toolTimeoutMs = 20 },
      'The tool timeout is set twice: 10 ms on the registry and toolTimeoutMs 20 ms in the config; set it in one place']
  ])('%s', (name, apply, message) => {
    const e = refusal(() => new AgentRuntime(cfg(apply)))
    expect(e).toBeInstanceOf(ArkAgentError)
    expect({ layer: e.layer, code: e.code, retryability: e.retryability, message: e.message })
      .toEqual({ layer: ErrorLayer.config, code: ErrorCodes.invalidConfig, retryability: ErrorRetryability.never, message })
  })

  it('a session id that is empty or not a string, and a missing provider', () => {
    const provider = new ScriptedProvider([])
    expect(refusal(() => new AgentRuntime(new AgentRuntimeConfig('', provider))).message).toBe('sessionId must be 1 to 256 characters long; got 0')
    expect(refusal(() => new AgentRuntime(new AgentRuntimeConfig(42 as unknown as string, provider))).message)
      .toBe('sessionId must be a string; got 42')
    expect(refusal(() => new AgentRuntime(new AgentRuntimeConfig(undefined as unknown as string, provider))).message)
      .toBe('sessionId must be a string; got undefined')
    for (const missing of [undefined, null]) {
      const e = refusal(() => new AgentRuntime(new AgentRuntimeConfig('s', missing as unknown as ModelProvider)))
      expect(e.message).toBe(`provider (a ModelProvider) must be an object with streamModel; got ${String(missing)}`)
      expect(e.code).toBe(ErrorCodes.invalidConfig)
    }
  })

  it('the same timeout in both places is accepted and kept', () => {
    const c = cfg((x) => { x.hooks = new AgentHookPipeline([], 700); x.hookTimeoutMs = 700; x.tools = new ToolRegistry([], 800); x.toolTimeoutMs = 800 })
    new AgentRuntime(c)
    expect(c.hooks.hookTimeoutMs).toBe(700)
    expect(c.tools.timeoutMs).toBe(800)
  })

  it('a refused config binds nothing to its controller; a built runtime binds until disposed', async () => {
    const c = cfg((x) => { x.maxTurns = 0 })
    refusal(() => new AgentRuntime(c))
    expect(c.controller.hasApprovalHost()).toBe(false)
    const ok = new AgentRuntime(cfg((x) => { x.controller = c.controller }))
    expect(ok.controller).toBe(c.controller)
    expect(c.controller.hasApprovalHost()).toBe(true)
    ok.dispose()
    expect(c.controller.hasApprovalHost()).toBe(false)
  })
})
