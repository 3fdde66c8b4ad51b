// Typed content parts (image, audio, resource, json): what a part accepts, what a text-only model is
// sent for it, and how a tool hands one back through the registry, the hooks, history and storage.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  AgentHook, AgentMessage, ContentPart, ContentPartType, createAgent, ErrorCodes, FunctionTool, LoopDetector,
  MemoryStateStorage, ModelRequest, RunStatus, ScriptedProvider, ScriptedTurn, ToolCall, ToolDefinition,
  ToolResult, ToolResultHookContext, ToolResultHookResult,
} from '../../src/index'
import { encodeChatRequest, WireRequestOptions } from '../../src/core/provider/OpenAIWireFormat'

const SEED = 20261201

describe('ContentPart: base64 and sizes', () => {
  it('isBase64 accepts exactly RFC 4648 padded base64 (the grammar as a regex oracle), over random text', () => {
    const alphabet = fc.constantFrom(...'ABCxyz0189+/=-_ \n*'.split(''))
    const grammar = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/
    // Random text, and valid encodings with one character replaced (the near misses).
    const nearMiss = fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 12 }), fc.nat(), alphabet).map(([b, i, c]) => {
      const t = Buffer.from(b).toString('base64')
      const at = i % t.length
      return t.slice(0, at) + c + t.slice(at + 1)
    })
    fc.assert(fc.property(fc.oneof(fc.string({ unit: alphabet, maxLength: 24 }), nearMiss), (text) => {
      expect(ContentPart.isBase64(text)).toBe(grammar.test(text))
      // Whatever it accepts, Node decodes to byteLength bytes.
      if (grammar.test(text)) expect(Buffer.from(text, 'base64').length).toBe(ContentPart.byteLength(text))
    }), { seed: SEED, numRuns: 3000 })
  })

  it('every encoding of random bytes is base64, and byteLength is the byte count', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      const b64 = Buffer.from(bytes).toString('base64')
      expect(ContentPart.isBase64(b64)).toBe(true)
      expect(ContentPart.byteLength(b64)).toBe(bytes.length)
    }), { seed: SEED, numRuns: 1000 })
  })

  it('a megabyte image is checked without a regex blowing the stack', () => {
    const big = Buffer.alloc(3 * 1024 * 1024, 7).toString('base64')
    expect(ContentPart.image('image/png', big).problem()).toBe('')
  })
})

describe('ContentPart: what each type accepts', () => {
  const cases: Array<[string, ContentPart, string]> = [
    ['image', ContentPart.image('image/png', 'AAEC'), ''],
    ['image without a MIME type', ContentPart.image('', 'AAEC'), 'an image part needs a MIME type'],
    ['image without data', ContentPart.image('image/png', ''), 'an image part needs data'],
    ['image with URL-safe base64', ContentPart.image('image/png', 'A-_C'), "the image part's data is not standard padded base64"],
    ['image with unpadded base64', ContentPart.image('image/png', 'AAE'), "the image part's data is not standard padded base64"],
    ['audio', ContentPart.audio('audio/wav', 'AAEC'), ''],
    ['resource link', ContentPart.resource('notes://a'), ''],
    ['text resource', ContentPart.resource('notes://a', 'text/plain', 'hi'), ''],
    ['blob resource', ContentPart.resource('notes://a', '', '', 'AAEC'), ''],
    ['resource without uri', ContentPart.resource('', 'text/plain', 'hi'), 'a resource part needs a uri'],
    ['resource with text and data', ContentPart.resource('u', '', 'hi', 'AAEC'), 'a resource part has text or data, not both'],
    ['json', ContentPart.json('{"a":[1,2]}'), ''],
    ['json that does not parse', ContentPart.json('{a}'), 'a json part needs text that parses as JSON'],
    ['text with a MIME type', ContentPart.of(ContentPartType.text, 'x', 'text/plain', '', ''), 'a text part carries only text'],
    ['image with text', ContentPart.of(ContentPartType.image, 'x', 'image/png', 'AAEC', ''), 'an image part carries only its bytes'],
  ]
  for (const [name, part, problem] of cases) {
    it(`${name}: ${problem === '' ? 'accepted' : problem}`, () => expect(part.problem()).toBe(problem))
  }
})

describe('what a text-only model is sent', () => {
  it('text as it is, each typed part on its own line, json unless a text part holds the same JSON', () => {
    const parts = [ContentPart.text('chart '), ContentPart.text('attached'), ContentPart.image('image/png', 'AAECAw=='),
      ContentPart.resource('notes://a', 'text/plain', 'note'), ContentPart.resource('file:///b', '', '', 'AAEC'),
      ContentPart.resource('notes://c'), ContentPart.audio('audio/wav', 'AA=='), ContentPart.text(' { "x": 1 }'),
      ContentPart.json('{"x":1}'), ContentPart.reasoning('hidden')]
    expect(ContentPart.modelTextOf(parts)).toBe('chart attached\n[image image/png, 4 bytes]\n' +
      '[resource notes://a text/plain]\nnote\n[resource file:///b, 3 bytes]\n[resource notes://c]\n[audio audio/wav, 1 bytes]\n { "x": 1 }')
    // Text that does not repeat the structured content leaves it in: the model gets both.
    expect(ContentPart.modelTextOf([ContentPart.text('Weather below.'), ContentPart.json('{"c":21}')]))
      .toBe('Weather below.\n{"c":21}')
    expect(ContentPart.modelTextOf([ContentPart.text('{"c":21}'), ContentPart.json('{"c":22}')])).toBe('{"c":21}\n{"c":22}')
    expect(ContentPart.modelTextOf([ContentPart.json('{"x":1}')])).toBe('{"x":1}')
    expect(ContentPart.modelTextOf([ContentPart.image('image/png', 'AAEC'), ContentPart.json('[]')]))
      .toBe('[image image/png, 3 bytes]\n[]')
  })

  it('a tool message with an image goes to the vendor as its description, never as the bytes', () => {
    const bytes = Buffer.alloc(3000, 1).toString('base64')
    const history = [AgentMessage.user('draw'), AgentMessage.assistant('', [new ToolCall('c1', 'draw', '{}', 0)]),
      AgentMessage.tool('c1', [ContentPart.text('done'), ContentPart.image('image/png', bytes)])]
    const body = JSON.parse(encodeChatRequest(new ModelRequest(history, []), new WireRequestOptions('m', {})))
    expect(body.messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'done\n[image image/png, 3000 bytes]' })
    expect(JSON.stringify(body)).not.toContain(bytes.slice(0, 40))
  })
})

const picture = Buffer.from('PNG!').toString('base64')
const drawDef = new ToolDefinition('draw', 'Draws', { type: 'object' })

function drawing(result: (call: ToolCall) => unknown): FunctionTool {
  return new FunctionTool(drawDef, async (_args, context) => result(context.call) as ToolResult)
}

/** Calls `draw` once, then echoes what it was sent for the result. */
function drawOnce(seen: string[] = []): ScriptedProvider {
  return ScriptedProvider.fromFunction((request: ModelRequest) => {
    const last = request.messages[request.messages.length - 1]
    if (last.role !== 'tool') return ScriptedTurn.text('').call('c1', 'draw', '{}')
    seen.push(last.modelText())
    return ScriptedTurn.text('ok')
  })
}

async function toolMessage(tool: FunctionTool, hooks: AgentHook[] = []): Promise<AgentMessage> {
  const { runtime } = createAgent({ sessionId: 's', model: drawOnce(), tools: [tool], hooks })
  expect((await runtime.run('draw')).status).toBe(RunStatus.completed)
  return runtime.snapshot().history.find((m) => m.role === 'tool')!
}

describe('a tool that returns a ToolResult', () => {
  it('keeps its typed parts in history and in storage; a new runtime restores them byte for byte', async () => {
    const storage = new MemoryStateStorage()
    const seen: string[] = []
    const tool = drawing(() => new ToolResult('any', [ContentPart.text('drawn'), ContentPart.image('image/png', picture)]))
    const first = createAgent({ sessionId: 'typed', model: drawOnce(seen), tools: [tool], storage })
    await first.runtime.run('draw')
    expect(seen).toEqual(['drawn\n[image image/png, 4 bytes]'])
    const second = createAgent({ sessionId: 'typed', model: drawOnce(), tools: [tool], storage })
    await second.runtime.restore()
    const msg = second.runtime.snapshot().history.find((m) => m.role === 'tool')!
    expect(msg.content.map((p) => [p.type, p.text, p.mimeType, p.data])).toEqual([
      ['text', 'drawn', '', ''], ['image', '', 'image/png', picture]])
  })

  it('is bound to the call it answers, whatever callId the tool put in it', async () => {
    const msg = await toolMessage(drawing(() => new ToolResult('forged', [ContentPart.text('x')])))
    expect(msg.toolCallId).toBe('c1')
  })

  it('an error-flagged one is tool_execution_failed whatever code the tool claimed, its parts kept', async () => {
    for (const code of [undefined, ErrorCodes.toolDenied, ErrorCodes.toolTimeout, 'mine']) {
      const msg = await toolMessage(drawing(() => new ToolResult('c1', [ContentPart.text('no printer'),
        ContentPart.json('{"retry":false}')], true, code)))
      expect([msg.isError, msg.errorCode, msg.content.length]).toEqual([true, ErrorCodes.toolExecutionFailed, 2])
    }
  })

  it('a success result never carries an error code', async () => {
    const msg = await toolMessage(drawing(() => new ToolResult('c1', [ContentPart.text('ok')], false, 'tool_denied')))
    expect([msg.isError, msg.errorCode]).toEqual([false, undefined])
  })

  it('one with a malformed part is tool_execution_failed naming the part, and nothing malformed is stored', async () => {
    const bad: Array<[ContentPart, string]> = [
      [ContentPart.image('image/png', 'not base64!'), 'result.content[1]: the image part\'s data is not standard padded base64'],
      [ContentPart.image('', picture), 'result.content[1]: an image part needs a MIME type'],
      [ContentPart.json('{'), 'result.content[1]: a json part needs text that parses as JSON'],
      [ContentPart.resource(''), 'result.content[1]: a resource part needs a uri'],
    ]
    for (const [part, why] of bad) {
      const msg = await toolMessage(drawing(() => new ToolResult('c1', [ContentPart.text('x'), part])))
      expect([msg.isError, msg.errorCode]).toEqual([true, ErrorCodes.toolExecutionFailed])
      expect(msg.text()).toBe(`Tool 'draw' returned an invalid ToolResult: ${why}`)
    }
  })

  it('a plain object shaped like a ToolResult is not one: it is JSON text, as any object a tool returns', async () => {
    const msg = await toolMessage(drawing(() => ({ callId: 'c1', content: [], isError: true })))
    expect([msg.isError, msg.text()]).toEqual([false, '{"callId":"c1","content":[],"isError":true}'])
  })
})

describe('typed parts under the hooks and the loop detector', () => {
  it('a hook that rewrites a result into a malformed image fails closed (hook_failed), nothing stored', async () => {
    class BadRewrite extends AgentHook {
      get hookName(): string { return 'bad-rewrite' }
      async afterToolCall(context: ToolResultHookContext): Promise<ToolResultHookResult> {
        return ToolResultHookResult.proceed(new ToolResult(context.result.callId, [ContentPart.image('image/png', '%%%')]))
      }
    }
    const { runtime } = createAgent({ sessionId: 'h', model: drawOnce(), tools: [drawing(() => 'fine')], hooks: [new BadRewrite()] })
    const outcome = await runtime.run('draw')
    expect([outcome.status, outcome.error?.code]).toEqual([RunStatus.failed, ErrorCodes.hookFailed])
    expect(outcome.error?.message).toContain("the image part's data is not standard padded base64")
    expect(runtime.snapshot().history.some((m) => m.content.some((p) => p.type === 'image'))).toBe(false)
  })

  it('results that differ only in their image bytes are different results; equal ones are the same', () => {
    const call = new ToolCall('c', 'camera', '{}', 0)
    const shot = (b: string) => new ToolResult(call.id, [ContentPart.text('frame'), ContentPart.image('image/jpeg', b)])
    expect(LoopDetector.resultHashOf(shot('AAEC'))).not.toBe(LoopDetector.resultHashOf(shot('AAED')))
    expect(LoopDetector.resultHashOf(shot('AAEC'))).toBe(LoopDetector.resultHashOf(shot('AAEC')))
    expect(LoopDetector.resultHashOf(new ToolResult('c', [ContentPart.text('x'), ContentPart.json('1')])))
      .not.toBe(LoopDetector.resultHashOf(new ToolResult('c', [ContentPart.text('x'), ContentPart.json('2')])))
  })
})
