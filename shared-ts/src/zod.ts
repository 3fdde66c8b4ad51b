// @arkagent/core/zod: tools and structured output described with zod schemas (`zod`, an optional
// peer dependency: install it to use this entry).
export { formatZodIssue, ZodTool, zodTool, type ZodToolOptions } from './node/zod/zodTool'
export { ZodOutputSchema, zodOutput, type TypedRunOutcome, type ZodOutputOptions } from './node/zod/zodOutput'
