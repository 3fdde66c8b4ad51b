import { ToolCall } from '../../src/core/model/ToolCall'
import { ToolResult } from '../../src/core/model/ToolResult'
import { LoopDetector } from '../../src/core/loop/LoopDetector'
import { LoopVerdict } from '../../src/core/loop/LoopDetectorPort'

let seq = 0

export function call(name: string, args: string = '{}'): ToolCall {
  seq++
  return new ToolCall(`call_${seq}`, name, args)
}

/** Records one call with a text result and returns the verdict. */
export function record(d: LoopDetector, name: string, args: string = '{}', result: string = 'ok'): LoopVerdict | undefined {
  const c = call(name, args)
  return d.recordToolResult(c, ToolResult.text(c.id, result))
}

/** Records a sequence of tool names (same args and result each time); returns every verdict. */
export function recordNames(d: LoopDetector, names: string[]): Array<LoopVerdict | undefined> {
  return names.map((n) => record(d, n))
}

/** Streams `text` in small token-like pieces; returns the first verdict seen. */
export function stream(d: LoopDetector, text: string, pieceSize: number = 3): LoopVerdict | undefined {
  let first: LoopVerdict | undefined
  for (let i = 0; i < text.length; i += pieceSize) {
    const v = d.recordChunk(text.substring(i, i + pieceSize))
    if (first === undefined && v !== undefined) first = v
  }
  return first
}

/** Records one call made at `atMs` (the caller's clock, as the runtime passes it). */
export function recordAt(d: LoopDetector, name: string, args: string, result: string, atMs: number): LoopVerdict | undefined {
  const c = call(name, args)
  return d.recordToolResult(c, ToolResult.text(c.id, result), atMs)
}

/** Streams `text` with every chunk size from 1 to 9, a fresh detector each; the first verdict of each. */
export function everyChunking(text: string, make: () => LoopDetector = () => new LoopDetector(), reasoning: boolean = false):
  Array<LoopVerdict | undefined> {
  const out: Array<LoopVerdict | undefined> = []
  for (let size = 1; size <= 9; size++) {
    const d = make()
    let first: LoopVerdict | undefined
    for (let i = 0; i < text.length; i += size) {
      const v = d.recordChunk(text.substring(i, i + size), reasoning)
      if (first === undefined) first = v
    }
    out.push(first)
  }
  return out
}

/** A detector that has seen the user's request `request`. */
export function withRequest(request: string, d: LoopDetector = new LoopDetector()): LoopDetector {
  d.recordUserMessage(request)
  return d
}
