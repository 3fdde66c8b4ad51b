// Vendor error codes decide, not only the HTTP status: every row of every preset's error table
// (and of the rows all vendors share) is checked with a body in that vendor's shape — recorded or
// documented bodies where they are known (message texts from the vendors' error-code pages where
// only the code is documented) — through the real provider on a local server: the error code,
// whether it is retried (counted by the server), and a message naming the vendor's code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorCodes } from '../../src/core/errors/ArkAgentError'
import { OpenAICompatibleProvider } from '../../src/core/provider/OpenAICompatibleProvider'
import { ProviderPreset, ProviderPresets } from '../../src/core/provider/ProviderPresets'
import { RetryPolicy } from '../../src/core/provider/RetryPolicy'
import { CommonErrorRules, ErrorRule } from '../../src/core/provider/VendorErrors'
import { CancellationToken } from '../../src/core/util/Cancellation'
import { FetchTransport } from '../../src/node/transport/FetchTransport'
import { rejection, userRequest } from './support/harness'
import { RecordingSink } from './support/RecordingSink'
import { respond, ScriptedServer, sse } from './support/ScriptedServer'
import { TestClock } from './support/TestClock'

type Sample = { status: number, body: string }

const zhipu = (code: string, message: string, status: number): Sample =>
  ({ status, body: JSON.stringify({ error: { code, message } }) })
const openaiShape = (status: number, message: string, type: string, code: string | null): Sample =>
  ({ status, body: JSON.stringify({ error: { message, type, param: null, code } }) })
const kimi = (status: number, type: string, message: string): Sample =>
  ({ status, body: JSON.stringify({ error: { message, type } }) })

/** A body per row, keyed `<preset>:<match or messageIncludes>` (`common:` for the shared rows). */
const samples: Record<string, Sample> = {
  'deepseek:': { status: 402, body: JSON.stringify({ error: { message: 'Insufficient Balance', type: 'unknown_error', param: null, code: 'invalid_request_error' } }) },
  'deepseek:content exists risk': openaiShape(400, 'Content Exists Risk', 'invalid_request_error', 'invalid_request_error'),
  'deepseek:maximum context length': openaiShape(400, "This model's maximum context length is 131072 tokens. However, you requested 140000 tokens (140000 in the messages, 0 in the completion). Please reduce the length of the messages or completion.", 'invalid_request_error', 'invalid_request_error'),
  'zhipu:1000': zhipu('1000', '身份验证失败。', 401),
  'zhipu:1001': zhipu('1001', 'Header中未收到Authentication参数，无法进行身份验证。', 401),
  'zhipu:1002': zhipu('1002', 'Authorization Token非法，请确认Authorization Token正确传递。', 401),
  'zhipu:1003': zhipu('1003', 'Authorization Token已过期，请重新生成/获取。', 401),
  'zhipu:1004': zhipu('1004', '通过Authorization Token验证失败，请确认Token正确传递。', 401),
  'zhipu:1110': zhipu('1110', '您的账户当前处于非活动状态。请检查账户信息。', 401),
  'zhipu:1111': zhipu('1111', '您的账户不存在。', 401),
  'zhipu:1112': zhipu('1112', '您的账户已被锁定，请联系客服解锁。', 401),
  'zhipu:1113': zhipu('1113', '余额不足或无可用资源包,请充值。', 429),
  'zhipu:1120': zhipu('1120', '您的账户暂时无法访问，请稍后再试。', 401),
  'zhipu:1121': zhipu('1121', '账户因违规已被锁定，请联系客服。', 401),
  'zhipu:1210': zhipu('1210', 'API 调用参数有误，请检查文档。', 400),
  'zhipu:1211': zhipu('1211', '模型不存在，请检查模型代码。', 400),
  'zhipu:1212': zhipu('1212', '当前模型不支持该调用方式。', 400),
  'zhipu:1213': zhipu('1213', '未正常接收到prompt参数。', 400),
  'zhipu:1214': zhipu('1214', 'messages 参数非法。请检查文档。', 400),
  'zhipu:1215': zhipu('1215', '不支持同时设置do_sample为false和temperature。', 400),
  'zhipu:1261': zhipu('1261', 'Prompt exceeds max length', 400),
  'zhipu:1301': zhipu('1301', '系统检测到输入或生成内容可能包含不安全或敏感内容，请您避免输入易产生敏感内容的提示语，感谢您的配合。', 400),
  'zhipu:1302': zhipu('1302', '您当前使用该API的并发数过高，请降低并发，或联系客服增加限额。', 429),
  'zhipu:1303': zhipu('1303', '您当前使用该API的频率过高，请降低频率，或联系客服增加限额。', 429),
  'zhipu:1304': zhipu('1304', '该API今日调用次数已达到上限，如有更多需求，请联系客服购买。', 429),
  'zhipu:1305': zhipu('1305', '该模型当前访问量过大，请您稍后再试', 429),
  'zhipu:1308': zhipu('1308', '已达到 5 小时的使用上限。', 429),
  'zhipu:1309': zhipu('1309', '您的套餐已到期。', 429),
  'zhipu:1310': zhipu('1310', '已达到每周/每月的使用上限。', 429),
  'zhipu:1311': zhipu('1311', '当前套餐不支持该模型。', 429),
  'zhipu:1312': zhipu('1312', '该模型当前流量过大，请稍后再试或切换模型。', 429),
  'zhipu:1313': zhipu('1313', '已触发公平使用策略。', 429),
  'qwen:Arrearage': openaiShape(400, 'Access denied, please make sure your account is in good standing. For details, see: https://help.aliyun.com/zh/model-studio/error-code#overdue-payment', 'Arrearage', 'Arrearage'),
  'qwen:InvalidApiKey': openaiShape(401, 'Invalid API-key provided.', 'InvalidApiKey', 'InvalidApiKey'),
  'qwen:AccessDenied': openaiShape(403, 'Access denied.', 'AccessDenied', 'AccessDenied'),
  'qwen:access_denied': openaiShape(403, 'You do not have access to this model.', 'invalid_request_error', 'access_denied'),
  'qwen:ModelNotFound': openaiShape(404, 'Model not exist.', 'ModelNotFound', 'ModelNotFound'),
  'qwen:model_not_found': openaiShape(404, 'The model `qwen-nope` does not exist or you do not have access to it.', 'invalid_request_error', 'model_not_found'),
  'qwen:data_inspection_failed': { status: 400, body: JSON.stringify({ error: { code: 'data_inspection_failed', param: null, message: 'Input data may contain inappropriate content.', type: 'data_inspection_failed' } }) },
  'qwen:DataInspectionFailed': openaiShape(400, 'Output data may contain inappropriate content.', 'DataInspectionFailed', 'DataInspectionFailed'),
  'qwen:range of input length': { status: 400, body: JSON.stringify({ error: { code: 'invalid_parameter_error', message: 'Range of input length should be [1, 129024]', type: 'invalid_request_error' } }) },
  'qwen:Throttling': openaiShape(429, 'Requests throttling triggered.', 'Throttling', 'Throttling'),
  'qwen:Throttling.RateQuota': openaiShape(429, 'Requests rate limit exceeded, please try again later.', 'Throttling.RateQuota', 'Throttling.RateQuota'),
  'qwen:Throttling.AllocationQuota': openaiShape(429, 'Allocated quota exceeded, please increase your quota limit.', 'Throttling.AllocationQuota', 'Throttling.AllocationQuota'),
  'moonshot:exceeded_current_quota_error': kimi(429, 'exceeded_current_quota_error', 'Your account org-7f3a <ak-e9c1> is suspended, please check your plan and billing details'),
  'moonshot:rate_limit_reached_error': kimi(429, 'rate_limit_reached_error', 'Your account org-7f3a <ak-e9c1> request reached organization max RPM: 3, please try again after 1 seconds'),
  'moonshot:engine_overloaded_error': kimi(429, 'engine_overloaded_error', 'The engine is currently overloaded, please try again later'),
  'moonshot:invalid_authentication_error': kimi(401, 'invalid_authentication_error', 'Invalid Authentication'),
  'moonshot:incorrect_api_key_error': kimi(401, 'incorrect_api_key_error', 'Incorrect API key provided'),
  'moonshot:resource_not_found_error': kimi(404, 'resource_not_found_error', 'Not found the model kimi-nope or Permission denied'),
  'moonshot:exceeded model token limit': kimi(400, 'invalid_request_error', 'Invalid request: Your request exceeded model token limit: 131072'),
  'common:insufficient_quota': openaiShape(429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota'),
  'common:credit_balance_exhausted': openaiShape(429, 'Your credit balance is too low to access the API.', 'insufficient_quota', 'credit_balance_exhausted'),
  'common:context_length_exceeded': openaiShape(400, "This model's maximum context length is 128000 tokens. However, your messages resulted in 130012 tokens. Please reduce the length of the messages.", 'invalid_request_error', 'context_length_exceeded'),
  'common:maximum context length': { status: 400, body: JSON.stringify({ object: 'error', message: "This model's maximum context length is 32768 tokens. However, you requested 33000 tokens in the messages, Please reduce the length of the messages.", type: 'BadRequestError', param: null, code: 400 }) },
  'common:invalid_api_key': openaiShape(401, 'Incorrect API key provided: sk-proj-****abcd.', 'invalid_request_error', 'invalid_api_key'),
  'common:content_filter': kimi(400, 'content_filter', 'The request was rejected because it was considered high risk'),
  'common:rate_limit_exceeded': openaiShape(429, 'Rate limit reached for gpt-5-mini in organization org-x on requests per min (RPM): Limit 3, Used 3, Requested 1.', 'requests', 'rate_limit_exceeded')
}

let server: ScriptedServer
beforeAll(async () => { server = await new ScriptedServer().start() })
afterAll(async () => server.close())

function provider(preset: ProviderPreset | undefined, retries: number): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({ transport: new FetchTransport(), baseUrl: server.baseUrl, apiKey: 'sk-test-key-1234',
    model: 'm', providerId: preset?.id ?? 'openai-compatible', clock: new TestClock(),
    retry: new RetryPolicy(retries, 10, 100, 60000, () => 0.5), firstChunkTimeoutMs: 5000, idleTimeoutMs: 5000,
    profile: preset?.profile, errorRules: preset?.errorRules })
}

const keyOf = (presetId: string, row: ErrorRule): string => `${presetId}:${row.match.length > 0 ? row.match : row.messageIncludes}`

const tables: Array<{ id: string, preset?: ProviderPreset, rows: ErrorRule[] }> = [
  ...ProviderPresets.all().map((p) => ({ id: p.id, preset: p, rows: p.errorRules })),
  { id: 'common', rows: CommonErrorRules.rows }
]

describe('every row of every vendor error table', () => {
  for (const table of tables) {
    for (const row of table.rows) {
      it(`${keyOf(table.id, row)} → ${row.errorCode}, ${row.retryable ? 'retried' : 'not retried'}`, async () => {
        const sample = samples[keyOf(table.id, row)]
        expect(sample, `no real body for ${keyOf(table.id, row)}`).toBeDefined()
        const before = server.requests.length
        // One retry allowed: a retryable row is sent twice, a final one once.
        server.enqueue(respond(sample.status, sample.body))
        if (row.retryable) server.enqueue(respond(sample.status, sample.body))
        const error = await rejection(provider(table.preset, 1).streamModel(userRequest(), new RecordingSink(),
          CancellationToken.none))
        expect(error.code).toBe(row.errorCode)
        expect(error.isRetryable()).toBe(row.retryable)
        expect(server.requests.length - before).toBe(row.retryable ? 2 : 1)
        if (row.match.length > 0) expect(error.message).toContain(row.match)
        expect(error.message).toContain(row.meaning)
      })
    }
  }
})

describe('vendor codes decide where the status alone misleads', () => {
  it('Zhipu 1113 (balance) on HTTP 429 is provider_insufficient_balance and never retried; 1305 on 429 is retried', async () => {
    const balance = samples['zhipu:1113']
    server.enqueue(respond(balance.status, balance.body))
    const before = server.requests.length
    const e1 = await rejection(provider(ProviderPresets.zhipu, 3).streamModel(userRequest(), new RecordingSink(), CancellationToken.none))
    expect(e1.code).toBe(ErrorCodes.providerInsufficientBalance)
    expect(server.requests.length - before).toBe(1)
    const busy = samples['zhipu:1305']
    server.enqueue(respond(busy.status, busy.body), sse(['data: {"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"stop"}]}\n\n', 'data: [DONE]\n\n']))
    const sink = new RecordingSink()
    await provider(ProviderPresets.zhipu, 3).streamModel(userRequest(), sink, CancellationToken.none)
    expect(sink.text()).toBe('ok')
  })

  it('an error a vendor sends inside a 200 stream is mapped by the same table (Zhipu 1301 mid-stream)', async () => {
    server.enqueue(sse([`data: ${JSON.stringify({ error: { code: '1301', message: '系统检测到输入或生成内容可能包含不安全或敏感内容' } })}\n\n`]))
    const e = await rejection(provider(ProviderPresets.zhipu, 0).streamModel(userRequest(), new RecordingSink(), CancellationToken.none))
    expect(e.code).toBe(ErrorCodes.providerContentFilter)
    expect(e.message).toContain('1301')
  })

  it('without a preset the status decides: 429 is rate limited and retried', async () => {
    server.enqueue(respond(429, '{"error":{"message":"slow down"}}'), respond(429, '{"error":{"message":"slow down"}}'))
    const before = server.requests.length
    const e = await rejection(provider(undefined, 1).streamModel(userRequest(), new RecordingSink(), CancellationToken.none))
    expect(e.code).toBe(ErrorCodes.providerRateLimited)
    expect(server.requests.length - before).toBe(2)
  })
})
