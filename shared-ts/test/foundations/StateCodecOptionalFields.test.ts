// The encoded objects the codec hands out carry only the fields that are set: an unset optional
// field is absent, not present as undefined.
import { describe, expect, it } from 'vitest'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ContentPart } from '../../src/core/model/ContentPart'
import { ToolCall } from '../../src/core/model/ToolCall'
import { AgentState } from '../../src/core/state/AgentState'
import { PendingPlanReview } from '../../src/core/state/PendingPlanReview'
import { StateCodec } from '../../src/core/state/StateCodec'
import { richBatch } from './fixtures'

describe('encoded objects omit unset optional fields', () => {
  it('a message without a tool call id or error code has neither key', () => {
    expect(Object.keys(StateCodec.encodeMessage(AgentMessage.user('hi')))).toEqual(['role', 'content'])
    expect(Object.keys(StateCodec.encodeMessage(AgentMessage.tool('call_1', [ContentPart.text('ok')]))))
      .toEqual(['role', 'content', 'toolCallId'])
    expect(Object.keys(StateCodec.encodeMessages([AgentMessage.tool('call_1', [ContentPart.text('bad')], true, 'tool_failed')], 0, 1)[0]))
      .toEqual(['role', 'content', 'toolCallId', 'isError', 'errorCode'])
  })

  it('an undecided approval item has no denyReason or decidedAtMs key; a decided one has them', () => {
    const s = new AgentState('a')
    s.pendingApproval = richBatch('run_1')
    const items = (StateCodec.encodeHeader(s)['pendingApproval'] as Record<string, any>)['items'] as Array<Record<string, unknown>>
    expect(Object.keys(items[0])).toEqual(['approvalId', 'toolCall', 'riskLevel', 'reason', 'createdAtMs', 'decision',
      'expiresAtMs'])
    expect(Object.keys(items[2])).toEqual(['approvalId', 'toolCall', 'riskLevel', 'reason', 'createdAtMs', 'decision',
      'denyReason', 'decidedAtMs', 'syntheticResult', 'channel', 'actor', 'messageToModel'])
    s.pendingApproval.items[0].expiresAtMs = undefined
    const bare = (StateCodec.encodeHeader(s)['pendingApproval'] as Record<string, any>)['items'] as Array<Record<string, unknown>>
    expect(Object.keys(bare[0])).toEqual(['approvalId', 'toolCall', 'riskLevel', 'reason', 'createdAtMs', 'decision'])
    // Sessions without grants or decisions have neither key.
    expect(Object.keys(StateCodec.encodeHeader(new AgentState('e'))).filter((k) => k === 'grants' || k === 'decisions')).toEqual([])
  })

  it('a plan review without a reason has no reason key', () => {
    const s = new AgentState('p')
    const call = new ToolCall('call_plan', 'submit_plan', '{}', 0)
    s.pendingPlanReview = new PendingPlanReview('review_1', 'run_1', 'plan', call, AgentMessage.assistant('', [call]), 5)
    const review = StateCodec.encodeHeader(s)['pendingPlanReview'] as Record<string, unknown>
    expect('reason' in review).toBe(false)
    s.pendingPlanReview.reason = 'vague'
    expect((StateCodec.encodeHeader(s)['pendingPlanReview'] as Record<string, unknown>)['reason']).toBe('vague')
  })
})

describe('approval records that contradict themselves are refused', () => {
  it('an approved risk above the asked level, a pending item carrying a decision, an execution of another call, a duplicated id', async () => {
    const { richState } = await import('./fixtures')
    const { StateCodec: Codec } = await import('../../src/core/state/StateCodec')
    const doc = () => JSON.parse(Codec.encode(richState('r'))) as Record<string, any>
    const mutations: [string, (d: Record<string, any>) => void][] = [
      ['approvedRisk above riskLevel', (d) => { d.pendingApproval.items[1].riskLevel = 'safe'; d.pendingApproval.items[1].approvedRisk = 'dangerous' }],
      ['pending with an actor', (d) => { d.pendingApproval.items[0].actor = 'x' }],
      ['executed another call', (d) => { d.decisions[0].executedCall.name = 'rm' }],
      ['duplicate approval id', (d) => { d.pendingApproval.items[1].approvalId = d.pendingApproval.items[0].approvalId }],
      ['pending in the log', (d) => { d.decisions[1].decision = 'pending'; delete d.decisions[1].channel; delete d.decisions[1].actor;
        delete d.decisions[1].decidedAtMs; delete d.decisions[1].denyReason; delete d.decisions[1].messageToModel }],
    ]
    for (const [what, change] of mutations) {
      const d = doc()
      change(d)
      expect(() => Codec.decode(JSON.stringify(d)), what).toThrow(/Invalid state/)
    }
  })
})
