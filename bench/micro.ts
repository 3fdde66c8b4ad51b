// Sections 5 and 6: LoopDetector per call and memory, EventBus publish.
import {
  BusEvent, ControllerEventTypes, EventBus, LlmChunkEvent, LoopDetector, LoopDetectorOptions, ToolCall, ToolResult,
} from '../shared-ts/src/index'
import { check, heapUsed } from './lib'

export class LoopFixture {
  readonly calls: ToolCall[] = []
  readonly results: ToolResult[] = []

  constructor(distinct: number) {
    for (let i = 0; i < distinct; i++) {
      this.calls.push(new ToolCall(`c${i}`, i % 3 === 0 ? 'read_file' : 'search',
        JSON.stringify({ path: `src/dir${i % 17}/file${i}.ts`, query: `needle ${i % 13}`, limit: 50 })))
      this.results.push(ToolResult.text(`c${i}`, `result ${i}: ${'x'.repeat(40 + (i % 60))}`))
    }
  }
}

export function loopDetector(): LoopDetector {
  const options = new LoopDetectorOptions()
  options.windowSize = 50
  return new LoopDetector(options)
}

/** Records `count` calls, cycling through the fixture (distinct enough that no loop is reported). */
export function recordCalls(detector: LoopDetector, f: LoopFixture, count: number): number {
  let verdicts = 0
  const n = f.calls.length
  for (let i = 0; i < count; i++) {
    const k = i % n
    if (detector.recordToolResult(f.calls[k], f.results[k]) !== undefined) verdicts++
  }
  return verdicts
}

export class LoopMemory {
  constructor(readonly after1k: number, readonly after1m: number, readonly windowSize: number) {}
}

export function loopMemory(f: LoopFixture): LoopMemory {
  const detector = loopDetector()
  recordCalls(detector, f, 1000)
  const a = heapUsed()
  recordCalls(detector, f, 999000)
  const b = heapUsed()
  check(detector.size() === 50, `window holds ${detector.size()} calls`)
  return new LoopMemory(a, b, detector.size())
}

export function busWithListeners(k: number): { bus: EventBus, counter: { n: number } } {
  const bus = new EventBus()
  const counter = { n: 0 }
  for (let i = 0; i < k; i++) {
    bus.subscribe(i % 2 === 0 ? ControllerEventTypes.llmChunk : ControllerEventTypes.all, (e: BusEvent): void => {
      counter.n++
    })
  }
  return { bus, counter }
}

export function publishPrebuilt(bus: EventBus, event: BusEvent, count: number): void {
  for (let i = 0; i < count; i++) bus.publish(event)
}

export function publishFresh(bus: EventBus, count: number): void {
  for (let i = 0; i < count; i++) bus.publish(new LlmChunkEvent('s', 'r', 'tok', false))
}
