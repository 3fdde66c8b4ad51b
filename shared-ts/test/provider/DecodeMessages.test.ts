// The wording of decodeChunk's shape errors names the value the server sent, in plain English.
import { describe, expect, it } from 'vitest'
import { ArkAgentError, decodeChunk } from '../../src/index'

function messageOf(data: string): string {
  try {
    decodeChunk(data)
  } catch (e) {
    return (e as ArkAgentError).message
  }
  return 'decoded'
}

describe('decodeChunk shape errors', () => {
  it('say "an object", "an array", "null" and "a number" for what was sent', () => {
    expect(messageOf('{"choices":[{"delta":{"tool_calls":{}}}]}')).toContain('tool_calls is an object')
    expect(messageOf('{"choices":{}}')).toContain('choices is an object, expected an array')
    expect(messageOf('[1]')).toContain('(an array, expected an object)')
    expect(messageOf('{"choices":[{"delta":{"content":7}}]}')).toContain('delta.content is a number, expected a string')
  })
})
