import { describe, expect, it } from 'vitest'
import { ArkAgentError, ErrorCodes, ErrorLayer } from '../../src/core/errors/ArkAgentError'
import {
  AgentFailedEvent,
  AgentStartedEvent,
  AgentSuccessEvent,
  HookDiagnosticEvent,
  LlmChunkEvent,
  PersistEvent,
  ToolBeforeEvent
} from '../../src/core/events/AgentEvents'
import { ApprovalRequiredEvent } from '../../src/core/events/ApprovalEvents'
import { BusEvent, CustomEvent } from '../../src/core/events/BusEvent'
import { ControllerEventTypes } from '../../src/core/events/ControllerEventTypes'
import { EventBus } from '../../src/core/events/EventBus'
import { AgentMessage } from '../../src/core/model/AgentMessage'
import { ToolCall } from '../../src/core/model/ToolCall'
import { rejectionOf, richBatch, thrownBy } from './fixtures'

const started = (): AgentStartedEvent => new AgentStartedEvent('s', 'r', [AgentMessage.user('hi')])
const chunk = (t: string): LlmChunkEvent => new LlmChunkEvent('s', 'r', t, false)

describe('EventBus: publish/subscribe', () => {
  it('delivers to listeners subscribed with ControllerEventTypes constants, by eventType()', () => {
    const bus = new EventBus()
    const got: string[] = []
    bus.subscribe(ControllerEventTypes.llmChunk, (e: BusEvent) => { got.push(`chunk:${(e as LlmChunkEvent).text}`) })
    bus.subscribe(ControllerEventTypes.agentStarted, (e: BusEvent) => { got.push(`started:${e.sessionId}/${e.runId}`) })
    bus.publish(chunk('a'))
    bus.publish(started())
    bus.publish(new AgentSuccessEvent('s', 'r', 'complete'))
    expect(got).toEqual(['chunk:a', 'started:s/r'])
  })

  it('maps every built-in event class to its ControllerEventTypes key', () => {
    const err = new ArkAgentError(ErrorLayer.provider, ErrorCodes.providerAuth, 'x')
    expect(started().eventType()).toBe(ControllerEventTypes.agentStarted)
    expect(new AgentSuccessEvent('s', 'r', 'complete').eventType()).toBe(ControllerEventTypes.agentSuccess)
    expect(new AgentFailedEvent('s', 'r', err, true).eventType()).toBe(ControllerEventTypes.agentFailed)
    expect(chunk('x').eventType()).toBe(ControllerEventTypes.llmChunk)
    expect(new ToolBeforeEvent('s', 'r', new ToolCall('c', 'n', '{}')).eventType()).toBe(ControllerEventTypes.beforeToolCall)
    expect(new ApprovalRequiredEvent('s', 'r', richBatch()).eventType()).toBe(ControllerEventTypes.approvalRequired)
    expect(new PersistEvent('s', 'r', 'terminal', true, false, true, 10).eventType()).toBe(ControllerEventTypes.persist)
    expect(new HookDiagnosticEvent('s', 'r', 'afterRun', 'boom').eventType()).toBe(ControllerEventTypes.hookDiagnostic)
    expect(ControllerEventTypes.isTerminal(ControllerEventTypes.agentFailed)).toBe(true)
    expect(ControllerEventTypes.isTerminal(ControllerEventTypes.llmChunk)).toBe(false)
    const a = chunk('1')
    const b = chunk('2')
    expect(a.eventId).not.toBe(b.eventId)
    expect(typeof a.timestampMs).toBe('number')
  })

  it("delivers everything to '*' listeners, in subscription order with typed listeners", () => {
    const bus = new EventBus()
    const got: string[] = []
    bus.subscribe(ControllerEventTypes.all, (e: BusEvent) => { got.push(`all1:${e.eventType()}`) })
    bus.subscribe(ControllerEventTypes.llmChunk, (e: BusEvent) => { got.push(`chunk:${e.eventType()}`) })
    bus.subscribe('*', (e: BusEvent) => { got.push(`all2:${e.eventType()}`) })
    bus.publish(chunk('a'))
    bus.publish(new CustomEvent('my.app.event', { 'k': 1 }))
    expect(got).toEqual(['all1:llm.chunk', 'chunk:llm.chunk', 'all2:llm.chunk', 'all1:my.app.event', 'all2:my.app.event'])
  })

  it('isolates a throwing listener from the publisher and from the other listeners, and counts it', () => {
    const bus = new EventBus()
    const got: string[] = []
    bus.subscribe(ControllerEventTypes.llmChunk, () => { got.push('first') })
    bus.subscribe(ControllerEventTypes.llmChunk, () => { throw new Error('UI crashed') })
    bus.subscribe(ControllerEventTypes.all, () => { throw new TypeError('undefined is not a function') })
    bus.subscribe(ControllerEventTypes.llmChunk, () => { got.push('last') })
    expect(bus.listenerFailures).toBe(0)
    expect(() => bus.publish(chunk('x'))).not.toThrow()
    expect(got).toEqual(['first', 'last'])
    expect(bus.listenerFailures).toBe(2)
    bus.publish(chunk('y'))
    expect(bus.listenerFailures).toBe(4)
  })

  it('lets a listener unsubscribe itself during publish: it runs this time, never again, and others are not skipped', () => {
    const bus = new EventBus()
    const got: string[] = []
    let off: () => void = () => {}
    bus.subscribe(ControllerEventTypes.llmChunk, () => { got.push('a') })
    off = bus.subscribe(ControllerEventTypes.llmChunk, () => { got.push('self'); off() })
    bus.subscribe(ControllerEventTypes.llmChunk, () => { got.push('c') })
    bus.publish(chunk('1'))
    bus.publish(chunk('2'))
    expect(got).toEqual(['a', 'self', 'c', 'a', 'c'])
  })

  it('uses the snapshot of the current publish when a listener unsubscribes another one', () => {
    const bus = new EventBus()
    const got: string[] = []
    let offVictim: () => void = () => {}
    bus.subscribe(ControllerEventTypes.llmChunk, () => { got.push('killer'); offVictim() })
    offVictim = bus.subscribe(ControllerEventTypes.llmChunk, () => { got.push('victim') })
    bus.subscribe(ControllerEventTypes.llmChunk, () => { got.push('bystander') })
    bus.publish(chunk('1'))
    expect(got).toEqual(['killer', 'victim', 'bystander'])
    got.length = 0
    bus.publish(chunk('2'))
    expect(got).toEqual(['killer', 'bystander'])
  })

  it('does not deliver the current event to a listener subscribed during its publish, but delivers the next', () => {
    const bus = new EventBus()
    const got: string[] = []
    let added = false
    bus.subscribe(ControllerEventTypes.llmChunk, (e: BusEvent) => {
      got.push(`orig:${(e as LlmChunkEvent).text}`)
      if (!added) {
        added = true
        bus.subscribe(ControllerEventTypes.llmChunk, (e2: BusEvent) => { got.push(`new:${(e2 as LlmChunkEvent).text}`) })
      }
    })
    bus.publish(chunk('1'))
    bus.publish(chunk('2'))
    expect(got).toEqual(['orig:1', 'orig:2', 'new:2'])
  })

  it('handles a publish from inside a listener (re-entrancy) without losing or duplicating deliveries', () => {
    const bus = new EventBus()
    const got: string[] = []
    bus.subscribe(ControllerEventTypes.agentStarted, () => {
      got.push('started')
      bus.publish(chunk('nested'))
    })
    bus.subscribe(ControllerEventTypes.llmChunk, (e: BusEvent) => { got.push(`chunk:${(e as LlmChunkEvent).text}`) })
    bus.subscribe(ControllerEventTypes.agentStarted, () => { got.push('started2') })
    bus.publish(started())
    expect(got).toEqual(['started', 'chunk:nested', 'started2'])
  })

  it('returns an unsubscribe from subscribe; listenerCount returns to its baseline (no leak), also when called twice', () => {
    const bus = new EventBus()
    bus.subscribe(ControllerEventTypes.all, () => {})
    const baseline = bus.listenerCount()
    const baselineChunk = bus.listenerCount(ControllerEventTypes.llmChunk)
    const offs: Array<() => void> = []
    for (let i = 0; i < 100; i++) {
      offs.push(bus.subscribe(ControllerEventTypes.llmChunk, () => {}))
    }
    expect(bus.listenerCount()).toBe(baseline + 100)
    expect(bus.listenerCount(ControllerEventTypes.llmChunk)).toBe(baselineChunk + 100)
    for (const off of offs) {
      off()
      off()
    }
    expect(bus.listenerCount()).toBe(baseline)
    expect(bus.listenerCount(ControllerEventTypes.llmChunk)).toBe(baselineChunk)
  })

  it('keeps the same listener function subscribed twice as two subscriptions, removed one at a time', () => {
    const bus = new EventBus()
    let n = 0
    const f = (): void => { n++ }
    const off1 = bus.subscribe(ControllerEventTypes.llmChunk, f)
    bus.subscribe(ControllerEventTypes.llmChunk, f)
    bus.publish(chunk('x'))
    expect(n).toBe(2)
    off1()
    bus.publish(chunk('x'))
    expect(n).toBe(3)
  })
})

describe('EventBus: request', () => {
  it('sends a request to its single handler and returns the answer', async () => {
    const bus = new EventBus()
    bus.registerRequestHandler('state.query', async (e: BusEvent) => {
      const payload = (e as CustomEvent).payload
      return `answer for ${payload['q'] as string}`
    })
    expect(await bus.request(new CustomEvent('state.query', { 'q': 'x' }))).toBe('answer for x')
  })

  it('rejects a second handler for the same type with request_handler_duplicate (config layer)', () => {
    const bus = new EventBus()
    bus.registerRequestHandler('state.query', async () => 1)
    const e = thrownBy(() => bus.registerRequestHandler('state.query', async () => 2))
    expect(e).toBeInstanceOf(ArkAgentError)
    expect(e.code).toBe(ErrorCodes.requestHandlerDuplicate)
    expect(e.layer).toBe(ErrorLayer.config)
    expect(e.message).toContain('state.query')
  })

  it('allows registering again after the first handler unregistered', async () => {
    const bus = new EventBus()
    const off = bus.registerRequestHandler('q', async () => 'one')
    off()
    bus.registerRequestHandler('q', async () => 'two')
    off() // a stale unregister must not remove the new handler
    expect(await bus.request(new CustomEvent('q'))).toBe('two')
  })

  it('fails with request_handler_missing (config layer) without a handler, unless a default is given', async () => {
    const bus = new EventBus()
    const e = await rejectionOf(bus.request(new CustomEvent('nobody.home')))
    expect(e).toBeInstanceOf(ArkAgentError)
    expect(e.code).toBe(ErrorCodes.requestHandlerMissing)
    expect(e.layer).toBe(ErrorLayer.config)
    expect(await bus.request(new CustomEvent('nobody.home'), 'fallback')).toBe('fallback')
    expect(await bus.request(new CustomEvent('nobody.home'), 0)).toBe(0)
  })

  it('propagates the handler\'s error to the requester, sync or async', async () => {
    const bus = new EventBus()
    const boom = new Error('handler failed')
    bus.registerRequestHandler('async.fail', async () => { throw boom })
    bus.registerRequestHandler('sync.fail', (() => { throw boom }) as unknown as (e: BusEvent) => Promise<Object>)
    expect(await rejectionOf(bus.request(new CustomEvent('async.fail')))).toBe(boom)
    expect(await rejectionOf(bus.request(new CustomEvent('sync.fail')))).toBe(boom)
    // A default value does not mask a failing handler.
    expect(await rejectionOf(bus.request(new CustomEvent('async.fail'), 'default'))).toBe(boom)
  })

  it('does not deliver requests to publish listeners nor publishes to request handlers', async () => {
    const bus = new EventBus()
    let heard = 0
    let handled = 0
    bus.subscribe('*', () => { heard++ })
    bus.registerRequestHandler('q', async () => { handled++; return 1 })
    await bus.request(new CustomEvent('q'))
    bus.publish(new CustomEvent('q'))
    expect(heard).toBe(1)
    expect(handled).toBe(1)
  })
})

describe('EventBus: close', () => {
  it('after close: publish is a no-op, subscribe returns a no-op, request rejects with event_bus_closed', async () => {
    const bus = new EventBus()
    let n = 0
    const off = bus.subscribe(ControllerEventTypes.llmChunk, () => { n++ })
    bus.registerRequestHandler('q', async () => 'x')
    bus.close()
    expect(bus.isClosed).toBe(true)
    expect(() => bus.publish(chunk('x'))).not.toThrow()
    expect(n).toBe(0)
    expect(bus.listenerCount()).toBe(0)
    const lateOff = bus.subscribe(ControllerEventTypes.llmChunk, () => { n++ })
    expect(typeof lateOff).toBe('function')
    expect(() => lateOff()).not.toThrow()
    expect(() => off()).not.toThrow()
    expect(bus.listenerCount()).toBe(0)
    bus.publish(chunk('y'))
    expect(n).toBe(0)
    const e = await rejectionOf(bus.request(new CustomEvent('q')))
    expect(e).toBeInstanceOf(ArkAgentError)
    expect(e.code).toBe(ErrorCodes.eventBusClosed)
    const e2 = await rejectionOf(bus.request(new CustomEvent('q'), 'default'))
    expect(e2.code).toBe(ErrorCodes.eventBusClosed)
    const e3 = thrownBy(() => bus.registerRequestHandler('q2', async () => 1))
    expect(e3.code).toBe(ErrorCodes.eventBusClosed)
  })

  it('completes the current publish from its snapshot when a listener closes the bus, and delivers nothing after', () => {
    const bus = new EventBus()
    const got: string[] = []
    bus.subscribe(ControllerEventTypes.llmChunk, () => { got.push('closer'); bus.close() })
    bus.subscribe(ControllerEventTypes.llmChunk, () => { got.push('second') })
    bus.publish(chunk('x'))
    bus.publish(chunk('y'))
    expect(got).toEqual(['closer', 'second'])
  })
})
