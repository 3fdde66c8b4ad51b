// The chat client's sample tools, confined to one folder.
import fs from 'node:fs'
import path from 'node:path'
import { FunctionTool, ToolDefinition, ToolRiskLevel } from '@arkagent/core'

function resolveInside(root: string, rel: string): string {
  const full = path.resolve(root, rel)
  if (full !== path.resolve(root) && !full.startsWith(path.resolve(root) + path.sep)) {
    throw new Error(`'${rel}' is outside the sandbox folder`)
  }
  return full
}

const fileArg: Record<string, Object> = {
  type: 'object',
  properties: { path: { type: 'string', minLength: 1, description: 'File name inside the sandbox folder' } },
  required: ['path'],
  additionalProperties: false,
}

export function sandboxTools(root: string): FunctionTool[] {
  fs.mkdirSync(root, { recursive: true })
  return [
    new FunctionTool(
      new ToolDefinition('list_files', 'List the files in the sandbox folder', { type: 'object', properties: {} }),
      async () => fs.readdirSync(root).sort().join('\n') || '(empty folder)',
    ),
    new FunctionTool(new ToolDefinition('read_file', 'Read a text file in the sandbox folder', fileArg), async (args) =>
      fs.readFileSync(resolveInside(root, String(args['path'])), 'utf8').slice(0, 20_000),
    ),
    new FunctionTool(
      new ToolDefinition('delete_file', 'Delete a file in the sandbox folder', fileArg, ToolRiskLevel.dangerous),
      async (args) => {
        fs.rmSync(resolveInside(root, String(args['path'])))
        return `deleted ${String(args['path'])}`
      },
    ),
  ]
}
