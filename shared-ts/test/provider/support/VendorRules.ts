// What each vendor refuses in a request body, as its documentation says, with the error body it sends.
// A VendorServer checks these before answering, for the main request and the summary request alike.
// The rules are the vendor's, written from its docs, not from the presets: a preset that sends what the
// vendor refuses fails here the way it would against the real API.

export interface Rejection { status: number, body: string }

/** Checks one request body; undefined when the vendor accepts it. */
export type RequestRule = (body: Record<string, unknown>) => Rejection | undefined

const openaiError = (message: string, param: string | null, code: string | null): Rejection => ({ status: 400,
  body: JSON.stringify({ error: { message, type: 'invalid_request_error', param, code } }) })

interface OpenAIModel {
  /** Reasoning models refuse `max_tokens` ("Use 'max_completion_tokens' instead"). */
  reasoning: boolean
  /** The `reasoning_effort` values the model takes; undefined: it has no such parameter. */
  efforts?: string[]
}

/**
 * OpenAI's models by family (platform.openai.com/docs/api-reference/chat/create,
 * platform.openai.com/docs/guides/reasoning): `max_tokens` "is not compatible with o-series models"
 * and gpt-5 models refuse it too; `reasoning_effort` exists on reasoning models only; before gpt-5.1
 * the models do not support `none`, gpt-5.1 and later do not support `minimal`, the o-series takes
 * low/medium/high, gpt-5-pro only high.
 */
function openaiModel(model: string): OpenAIModel {
  if (/^gpt-5(\.\d+)?-chat/.test(model)) return { reasoning: false }
  if (/^gpt-5(\.\d+)?-pro/.test(model)) return { reasoning: true, efforts: ['high'] }
  if (/^gpt-5\.\d/.test(model)) return { reasoning: true, efforts: ['none', 'low', 'medium', 'high'] }
  if (/^gpt-5/.test(model)) return { reasoning: true, efforts: ['minimal', 'low', 'medium', 'high'] }
  if (/^o1-(mini|preview)/.test(model)) return { reasoning: true }
  if (/^o\d/.test(model)) return { reasoning: true, efforts: ['low', 'medium', 'high'] }
  return { reasoning: false } // gpt-4.1, gpt-4o and older
}

const quoted = (values: string[]): string => values.map((v) => `'${v}'`).join(', ').replace(/, ([^,]*)$/, ', and $1')

/** OpenAI: unknown fields, `max_tokens` on reasoning models, `reasoning_effort` where the model has none or not that value. */
export const OPENAI_RULES: RequestRule = (body) => {
  for (const field of ['thinking', 'enable_thinking']) {
    if (field in body) return openaiError(`Unrecognized request argument supplied: ${field}`, null, null)
  }
  const model = openaiModel(String(body.model))
  if (model.reasoning && 'max_tokens' in body) {
    return openaiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'max_tokens', 'unsupported_parameter')
  }
  if ('reasoning_effort' in body) {
    const effort = String(body.reasoning_effort)
    if (model.efforts === undefined) {
      return openaiError("Unsupported parameter: 'reasoning_effort' is not supported with this model.", 'reasoning_effort',
        'unsupported_parameter')
    }
    if (!model.efforts.includes(effort)) {
      return openaiError(`Unsupported value: 'reasoning_effort' does not support '${effort}' with this model. ` +
        `Supported values are: ${quoted(model.efforts)}.`, 'reasoning_effort', 'unsupported_value')
    }
  }
  return undefined
}

/**
 * Qwen on Model Studio: `enable_thinking` "only allowed in streaming calls"
 * (alibabacloud.com/help/en/model-studio/deep-thinking); DashScope's error body.
 */
export const QWEN_RULES: RequestRule = (body) => {
  if (body.enable_thinking === true && body.stream !== true) {
    return { status: 400, body: JSON.stringify({ error: { code: 'invalid_parameter_error', type: 'invalid_request_error',
      message: 'parameter.enable_thinking must be set to false for non-streaming calls' } }) }
  }
  return undefined
}

export const NO_RULES: RequestRule = () => undefined
