// The per-model table of docs/providers.md is what the encoder does: for every row and every model it
// names, the token-limit field, what thinking on and off add to the body, and where usage is read.
// Plus the profile mechanics (families, first match wins) and usage read from `choices[0].usage`.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ErrorCodes } from '../../src/core/errors/ArkAgentError'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ModelRequest } from '../../src/core/model/ModelRequest'
import { OpenAICompatibleProvider } from '../../src/core/provider/OpenAICompatibleProvider'
import { decodeChunk, encodeChatRequest, WireRequestOptions } from '../../src/core/provider/OpenAIWireFormat'
import { ProviderPresets } from '../../src/core/provider/ProviderPresets'
import {
  ModelFamily, ReasoningEcho, ThinkingStyle, TokenLimitParam, UsageLocation, WireProfile
} from '../../src/core/provider/WireProfile'
import { FetchTransport } from '../../src/node/transport/FetchTransport'

interface Row { preset: string, family: string, models: string[], limit: string, on: unknown, off: unknown, usage: UsageLocation }

/** The rows of the "Per model" table: | Vendor (`id`) | family | models | limit | on | off | usage | docs | */
function table(): Row[] {
  const doc = fs.readFileSync(path.join(__dirname, '../../../docs/providers.md'), 'utf8')
  const section = doc.split('## Per model: token limit, thinking, usage')[1].split('\n## ')[0]
  const rows: Row[] = []
  for (const line of section.split('\n')) {
    const cells = line.split(' | ').map((c) => c.replace(/^\| /, '').trim())
    const preset = /\(`([a-z]+)`\)/.exec(cells[0] ?? '')
    if (!line.startsWith('| ') || preset === null) continue
    const code = (cell: string): string => /`([^`]*)`/.exec(cell)![1]
    rows.push({ preset: preset[1], family: cells[1], models: [...cells[2].matchAll(/`([^`]+)`/g)].map((m) => m[1]),
      limit: code(cells[3]), on: JSON.parse(code(cells[4])), off: JSON.parse(code(cells[5])),
      usage: cells[6].includes('choices[0].usage') ? UsageLocation.choice : UsageLocation.chunk })
  }
  return rows
}

const THINKING = ['thinking', 'enable_thinking', 'reasoning_effort']

function body(preset: string, model: string, thinking: boolean | undefined): Record<string, unknown> {
  const request = new ModelRequest([AgentMessage.user('hi')], [], '', undefined, 321, thinking)
  return JSON.parse(encodeChatRequest(request, new WireRequestOptions(model, {}, ProviderPresets.byId(preset)!.profile)))
}

const pick = (b: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(THINKING.filter((k) => k in b).map((k) => [k, b[k]]))

describe('the per-model table in docs/providers.md', () => {
  const rows = table()

  it('has a row for every preset, and every model a preset lists is in a row', () => {
    expect(new Set(rows.map((r) => r.preset))).toEqual(new Set(ProviderPresets.all().map((p) => p.id)))
    const documented = new Set(rows.flatMap((r) => r.models))
    for (const preset of ProviderPresets.all()) for (const model of preset.models) expect(documented).toContain(model)
  })

  for (const row of table()) {
    for (const model of row.models) {
      it(`${row.preset} ${model} (${row.family}): ${row.limit}, on ${JSON.stringify(row.on)}, off ${JSON.stringify(row.off)}, usage ${row.usage}`, () => {
        const on = body(row.preset, model, true)
        const off = body(row.preset, model, false)
        const unset = body(row.preset, model, undefined)
        for (const b of [on, off, unset]) {
          expect(b[row.limit]).toBe(321)
          expect(Object.keys(b).filter((k) => k === 'max_tokens' || k === 'max_completion_tokens')).toEqual([row.limit])
        }
        expect(pick(on)).toEqual(row.on)
        expect(pick(off)).toEqual(row.off)
        expect(pick(unset)).toEqual({})
        expect(ProviderPresets.byId(row.preset)!.profile.forModel(model).usage).toBe(row.usage)
      })
    }
  }
})

describe('WireProfile families', () => {
  const base = new WireProfile(ReasoningEcho.never, ThinkingStyle.reasoningEffort, 'reasoning_content', '', 'low',
    TokenLimitParam.maxCompletionTokens)
  const quiet = base.withThinking(ThinkingStyle.none).withTokenLimit(TokenLimitParam.maxTokens)
  const profile = base.withFamilies([new ModelFamily('chat', /^my-chat/, quiet), new ModelFamily('all my', /^my-/, base.withUsage(UsageLocation.choice))])

  it('the first family whose pattern matches the model wins, case-insensitively; no match is the profile itself', () => {
    expect(profile.forModel('my-chat-1')).toBe(quiet)
    expect(profile.forModel('MY-CHAT-1')).toBe(quiet)
    expect(profile.forModel('my-reasoner').usage).toBe(UsageLocation.choice)
    expect(profile.forModel('other')).toBe(profile)
    expect(profile.familyOf('my-chat-1')?.name).toBe('chat')
    expect(profile.familyOf('other')).toBeUndefined()
    // with* copies keep everything else.
    expect([quiet.reasoningEcho, quiet.thinking, quiet.tokenLimit, quiet.usage]).toEqual(
      [ReasoningEcho.never, ThinkingStyle.none, TokenLimitParam.maxTokens, UsageLocation.chunk])
  })

  it('the generic profile is unchanged: max_tokens, no switch, usage at the top level', () => {
    expect([WireProfile.generic.tokenLimit, WireProfile.generic.thinking, WireProfile.generic.usage, WireProfile.generic.families])
      .toEqual([TokenLimitParam.maxTokens, ThinkingStyle.none, UsageLocation.chunk, []])
  })

  it('a provider refuses a profile whose families are not ModelFamily objects (invalid_config)', () => {
    const bad = base.withFamilies([{ name: 'x', pattern: /x/, profile: base } as unknown as ModelFamily])
    expect(() => new OpenAICompatibleProvider({ transport: new FetchTransport(), baseUrl: 'https://x.test', profile: bad }))
      .toThrowError(expect.objectContaining({ code: ErrorCodes.invalidConfig }))
  })

  it('the provider\'s reasoningEcho is its default model\'s family\'s', () => {
    const echoing = new WireProfile(ReasoningEcho.toolTurns, ThinkingStyle.none)
    const p = base.withFamilies([new ModelFamily('echo', /^echo/, echoing)])
    const make = (model: string) => new OpenAICompatibleProvider({ transport: new FetchTransport(), baseUrl: 'https://x.test', model, profile: p })
    expect([make('echo-1').reasoningEcho, make('plain').reasoningEcho]).toEqual([ReasoningEcho.toolTurns, ReasoningEcho.never])
  })
})

describe('usage inside the choice (Moonshot Kimi)', () => {
  const kimiLast = JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'kimi-k2.5', choices: [{ index: 0, delta: {},
    finish_reason: 'stop', usage: { prompt_tokens: 19, completion_tokens: 13, total_tokens: 32, cached_tokens: 0 } }] })

  it('is read from choices[0].usage, whatever the profile', () => {
    for (const at of [UsageLocation.choice, UsageLocation.chunk]) {
      const chunk = decodeChunk(kimiLast, at)
      expect(chunk.usage).toMatchObject({ promptTokens: 19, completionTokens: 13, totalTokens: 32 })
      expect(chunk.choice?.finishReason).toBe('stop')
    }
  })

  it('when a chunk carries both, the profile\'s place wins', () => {
    const both = JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop', usage: { prompt_tokens: 1 } }],
      usage: { prompt_tokens: 2 } })
    expect(decodeChunk(both, UsageLocation.choice).usage?.promptTokens).toBe(1)
    expect(decodeChunk(both, UsageLocation.chunk).usage?.promptTokens).toBe(2)
    expect(decodeChunk(both).usage?.promptTokens).toBe(2)
  })
})
