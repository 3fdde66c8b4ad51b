// A zod schema as plain JSON Schema data, for tools' parameters and output schemas alike.
import { z } from 'zod'
import { ArkAgentError, ErrorCodes, ErrorLayer, ErrorRetryability } from '../../core/errors/ArkAgentError'

/**
 * zod 4's JSON Schema of `schema` (its input side) as a plain data copy — no prototypes, no undefined
 * values, no `$schema` — or invalid_config naming `what` (e.g. "Tool 'x'") when zod cannot express it.
 */
export function zodJsonSchema(schema: z.ZodType, what: string): Record<string, Object> {
  let json: Record<string, unknown>
  try {
    json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>
  } catch (e) {
    throw new ArkAgentError(ErrorLayer.config, ErrorCodes.invalidConfig,
      `${what}: its zod schema cannot be expressed as JSON Schema: ${e instanceof Error ? e.message : String(e)}`,
      ErrorRetryability.never)
  }
  const plain = JSON.parse(JSON.stringify(json)) as Record<string, Object>
  delete plain['$schema']
  return plain
}
