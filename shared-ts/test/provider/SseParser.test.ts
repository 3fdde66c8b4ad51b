import { describe, expect, it } from 'vitest'
import { SseEvent, SseParser } from '../../src/core/provider/SseParser'

function parse(...chunks: string[]): SseEvent[] {
  const parser = new SseParser()
  const out: SseEvent[] = []
  for (const c of chunks) out.push(...parser.feedAll(c))
  return out
}

const datas = (events: SseEvent[]): string[] => events.map((e) => e.data)

describe('SseParser', () => {
  it('dispatches an event at the blank line after its data line', () => {
    const events = parse('data: hello\n\n')
    expect(events).toHaveLength(1)
    expect(events[0].data).toBe('hello')
    expect(events[0].event).toBe('message')
  })

  it('joins multiple data lines of one event with a newline', () => {
    expect(datas(parse('data: a\ndata: b\ndata:c\n\n'))).toEqual(['a\nb\nc'])
  })

  it('drops only one leading space of a value', () => {
    expect(datas(parse('data:  two spaces\n\ndata:none\n\n'))).toEqual([' two spaces', 'none'])
  })

  it('reads event, id and retry fields', () => {
    const parser = new SseParser()
    const events = parser.feedAll('event: update\nid: 42\nretry: 3000\ndata: x\n\n')
    expect(events[0].event).toBe('update')
    expect(events[0].id).toBe('42')
    expect(parser.retryMs).toBe(3000)
  })

  it('keeps the last event id for later events and resets the event type after each event', () => {
    const events = parse('event: a\nid: 7\ndata: 1\n\ndata: 2\n\n')
    expect(events.map((e) => [e.event, e.id])).toEqual([['a', '7'], ['message', '7']])
  })

  it('ignores a retry value that is not all digits and an id containing NUL', () => {
    const parser = new SseParser()
    const events = parser.feedAll('retry: 12a\nid: ok\n\nid: bad\u0000\ndata: x\n\n')
    expect(parser.retryMs).toBe(-1)
    expect(events[0].id).toBe('ok')
  })

  it('skips comment lines such as keep-alives, alone or inside an event', () => {
    expect(datas(parse(': keep-alive\n\n:\ndata: a\n: note\ndata: b\n\n'))).toEqual(['a\nb'])
  })

  it('ignores unknown fields and fields that only share a prefix', () => {
    expect(datas(parse('foo: bar\ndatum: x\ndata: y\n\n'))).toEqual(['y'])
  })

  it('treats a bare field name as an empty value', () => {
    expect(datas(parse('data\n\ndata\ndata\n\n'))).toEqual(['', '\n'])
  })

  it('does not dispatch an event without data lines', () => {
    expect(parse('event: ping\n\nid: 3\n\n')).toEqual([])
  })

  it('dispatches an empty data field as an event with empty data', () => {
    expect(datas(parse('data:\n\n'))).toEqual([''])
  })

  it('accepts CRLF, LF and lone CR line endings, mixed', () => {
    expect(datas(parse('data: a\r\n\r\ndata: b\r\rdata: c\n\n'))).toEqual(['a', 'b', 'c'])
  })

  it('handles a CRLF split between two chunks as one line ending', () => {
    expect(datas(parse('data: a\r', '\n\r', '\ndata: b\r\n\r\n'))).toEqual(['a', 'b'])
    expect(datas(parse('data: a\r', '\ndata: b\r\n\r\n'))).toEqual(['a\nb'])
  })

  it('treats a chunk-final CR followed by a non-LF chunk as a line ending', () => {
    expect(datas(parse('data: a\r', '\rdata: b\r', '\r'))).toEqual(['a', 'b'])
  })

  it('strips a leading UTF-8 BOM once, only at the start of the stream', () => {
    expect(datas(parse('\uFEFFdata: a\n\n'))).toEqual(['a'])
    expect(datas(parse('', '\uFEFFdata: a\n\n'))).toEqual(['a'])
    expect(datas(parse('data: a\n\n', '\uFEFFdata: b\n\n'))).toEqual(['a'])
  })

  it('reassembles an event split at every possible boundary', () => {
    const stream = 'event: e\r\ndata: {"k":"v"}\r\ndata: 第二行\n\n: c\rdata: [DONE]\r\n\r\n'
    const whole = parse(stream)
    for (let i = 0; i <= stream.length; i++) {
      for (let j = i; j <= stream.length; j++) {
        expect(parse(stream.slice(0, i), stream.slice(i, j), stream.slice(j))).toEqual(whole)
      }
    }
  })

  it('reassembles a long line fed one character at a time', () => {
    const long = 'x'.repeat(5000)
    expect(datas(parse(...`data: ${long}\n\n`.split('')))).toEqual([long])
  })

  it('passes [DONE] through as ordinary data', () => {
    expect(datas(parse('data: [DONE]\n\n'))).toEqual(['[DONE]'])
  })

  it('discards an event left open when the stream ends and reports it as incomplete', () => {
    const parser = new SseParser()
    expect(parser.feedAll('data: complete\n\ndata: cut')).toHaveLength(1)
    expect(parser.hasIncompleteEvent()).toBe(true)
    const done = new SseParser()
    done.feedAll('data: x\n\n')
    expect(done.hasIncompleteEvent()).toBe(false)
  })

  it('starts over after reset', () => {
    const parser = new SseParser()
    parser.feedAll('id: 1\ndata: partial')
    parser.reset()
    const events = parser.feedAll('\uFEFFdata: fresh\n\n')
    expect(events.map((e) => [e.data, e.id])).toEqual([['fresh', '']])
  })
})
