import { OutputFault, OutputVerdict } from './OutputVerdict'

/** A whole answer that is one fenced block, untagged or tagged `json`: group 1 is its content. */
const WHOLE_FENCE: RegExp = /^(`{3,}|~{3,})[ \t]*(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?[ \t]*\1[ \t]*$/

/**
 * The text of a final answer as JSON. Decided here: an answer that is exactly one fenced code block
 * (```` ```json ```` or an untagged ```` ``` ````, any fence length, ``` or ~~~) counts as its content —
 * models add the fence out of habit and a repair turn for it would be wasted; the history keeps the
 * answer as sent. Anything else around the value (prose before or after, two blocks, a fence tagged
 * with another language) is not accepted: the answer must be the JSON value alone.
 */
export class OutputText {
  /** The JSON text inside a whole-answer fence, else the trimmed answer. */
  static unwrap(text: string): string {
    const trimmed = text.trim()
    const fenced = WHOLE_FENCE.exec(trimmed)
    return fenced !== null ? fenced[2].trim() : trimmed
  }

  /** Parses the answer (see unwrap); a verdict that is valid with the value, or empty / not_json with why. */
  static parse(text: string): OutputVerdict {
    const json = OutputText.unwrap(text)
    if (json.length === 0) {
      return OutputVerdict.invalid(OutputFault.empty, ['the answer is empty: it must be a JSON value'])
    }
    try {
      const value = JSON.parse(json) as Object | null
      return OutputVerdict.valid(value)
    } catch (e) {
      return OutputVerdict.invalid(OutputFault.notJson, [OutputText.whyNotJson(json, e as Object)])
    }
  }

  private static whyNotJson(json: string, thrown: Object): string {
    const first = json.charAt(0)
    if (first !== '{' && first !== '[' && first !== '"' && !/^[-0-9tfn]/.test(first)) {
      return `the answer is not JSON: it starts with ${JSON.stringify(json.slice(0, 40))}; ` +
        'reply with the JSON value alone, no prose around it'
    }
    const reason = thrown instanceof Error ? (thrown as Error).message : 'it does not parse'
    return `the answer is not valid JSON (${reason.slice(0, 200)})`
  }
}
