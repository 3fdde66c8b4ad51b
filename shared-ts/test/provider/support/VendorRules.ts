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

/** Both rules must accept the body; the first refusal wins. */
export const both = (a: RequestRule, b: RequestRule): RequestRule => (body) => a(body) ?? b(body)

const mentionsJson = (body: Record<string, unknown>): boolean =>
  (body.messages as Array<{ content?: unknown }>).some((m) => typeof m.content === 'string' && /json/i.test(m.content))

const formatType = (body: Record<string, unknown>): string | undefined =>
  (body.response_format as { type?: string } | undefined)?.type

/**
 * Each vendor's documented JSON mode, as its server enforces it:
 * - OpenAI (platform.openai.com/docs/guides/structured-outputs): `json_schema` needs a name of
 *   `[a-zA-Z0-9_-]{1,64}` and an object schema; `json_object` needs the word JSON in the messages.
 * - DeepSeek (api-docs.deepseek.com/guides/json_mode): only `json_object`, and the prompt must contain "json".
 * - Zhipu GLM (docs.z.ai/guides/capabilities/struct-output): only `json_object` (code 1210 otherwise).
 * - Qwen (alibabacloud.com/help/en/model-studio/qwen-structured-output): `json_object` needs "JSON" in
 *   the messages; `json_schema` only on some qwen-plus snapshots.
 * - Kimi (platform.moonshot.ai/docs/guide/use-json-mode-feature-of-kimi-api): `json_object`.
 * - Ollama, vLLM: `json_schema` (grammar-constrained decoding) and `json_object`.
 */
export const JSON_MODE_RULES: Record<string, RequestRule> = {
  openai: (body) => {
    const type = formatType(body)
    if (type === 'json_object' && !mentionsJson(body)) {
      return openaiError("'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
        'messages', null)
    }
    if (type === 'json_schema') {
      const spec = (body.response_format as { json_schema?: { name?: unknown, schema?: { type?: unknown } } }).json_schema
      if (typeof spec?.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(spec.name)) {
        return openaiError("Invalid 'response_format.json_schema.name'.", 'response_format.json_schema.name', 'invalid_value')
      }
      if (spec.schema?.type !== 'object') {
        return openaiError("Invalid schema for response_format: schema must be a JSON Schema of 'type: \"object\"'.",
          'response_format', null)
      }
    }
    return undefined
  },
  deepseek: (body) => {
    const type = formatType(body)
    if (type !== undefined && type !== 'text' && type !== 'json_object') {
      return { status: 400, body: JSON.stringify({ error: { message: 'This response_format type is unavailable now',
        type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }) }
    }
    if (type === 'json_object' && !mentionsJson(body)) {
      return { status: 400, body: JSON.stringify({ error: { message: "Prompt must contain the word 'json' in some form to use " +
        "'response_format' of type 'json_object'.", type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }) }
    }
    return undefined
  },
  zhipu: (body) => {
    const type = formatType(body)
    if (type !== undefined && type !== 'text' && type !== 'json_object') {
      return { status: 400, body: JSON.stringify({ error: { code: '1210', message: 'API 调用参数有误，请检查文档。' } }) }
    }
    return undefined
  },
  qwen: (body) => {
    const type = formatType(body)
    if (type === 'json_object' && !mentionsJson(body)) {
      return { status: 400, body: JSON.stringify({ error: { code: 'invalid_parameter_error', type: 'invalid_request_error',
        message: "<400> InternalError.Algo.InvalidParameter: 'messages' must contain the word 'json' in some form, to use " +
          "'response_format' of type 'json_object'." } }) }
    }
    if (type === 'json_schema' && !/^qwen-plus/.test(String(body.model))) {
      return { status: 400, body: JSON.stringify({ error: { code: 'invalid_parameter_error', type: 'invalid_request_error',
        message: 'The json_schema response format is not supported by this model.' } }) }
    }
    return undefined
  },
  moonshot: (body) => {
    const type = formatType(body)
    if (type !== undefined && type !== 'text' && type !== 'json_object' && type !== 'json_schema') {
      return { status: 400, body: JSON.stringify({ error: { message: `invalid response_format type: ${type}`,
        type: 'invalid_request_error' } }) }
    }
    return undefined
  },
  ollama: () => undefined,
  vllm: () => undefined
}
