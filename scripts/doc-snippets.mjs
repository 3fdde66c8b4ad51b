// The code blocks of the documentation that build an agent runtime (`new AgentRuntime(` or
// `createAgent(`), from the READMEs and docs/. Each one must be checked: an ArkTS block (it imports
// from '@arkagent/agent_core' or a HarmonyOS kit) by the ArkTS linter (`npm run lint:har` lints them
// as .ets files next to a stub `agent/AppAgent.ets`); a Node block by running it — it must appear
// verbatim in a file under examples/ that a test runs (examples/snippets/DocSnippets.test.ts).
import fs from 'node:fs'
import path from 'node:path'
import { repoRoot } from './sync-core.mjs'

/** The documents whose snippets are checked. */
export function docFiles(root = repoRoot) {
  const docs = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)
  return ['README.md', 'shared-ts/README.md', 'agent_core/README.md', ...docs]
}

const BUILDS = /new AgentRuntime\(|createAgent\(/

/** Every fenced block that builds a runtime: { doc, line, lang, body, platform: 'arkts' | 'node' }. */
export function runtimeSnippets(root = repoRoot) {
  const out = []
  for (const doc of docFiles(root)) {
    const text = fs.readFileSync(path.join(root, doc), 'utf8')
    const fence = /^```(\w*)\n([\s\S]*?)^```/gm
    for (let m = fence.exec(text); m !== null; m = fence.exec(text)) {
      const body = m[2]
      if (!BUILDS.test(body)) continue
      const line = text.slice(0, m.index).split('\n').length
      const arkts = /from '@arkagent\/agent_core'|from '@kit\.|from '@ohos\./.test(body)
      out.push({ doc, line, lang: m[1], body, platform: arkts ? 'arkts' : 'node' })
    }
  }
  return out
}

/** What an ArkTS snippet may import besides the HAR: the app's own holder of the runtime. */
export const APP_AGENT_STUB = `import { AgentRuntime, AgentTool } from '@arkagent/agent_core'

/** The app's holder of its runtime, shared with the pages (what the snippets call AppAgent). */
export class AppAgent {
  static runtime?: AgentRuntime
  static tools: AgentTool[] = []

  static apiKey(): string {
    return ''
  }
}
`

/**
 * Writes every ArkTS snippet into `dir` as `snippets/<doc>_<line>.ets` beside `agent/AppAgent.ets`
 * and returns the files to lint (with the doc location of each).
 */
export function writeArkTsSnippets(dir, root = repoRoot) {
  fs.mkdirSync(path.join(dir, 'agent'), { recursive: true })
  fs.mkdirSync(path.join(dir, 'snippets'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'agent', 'AppAgent.ets'), APP_AGENT_STUB)
  const files = [path.join(dir, 'agent', 'AppAgent.ets')]
  for (const s of runtimeSnippets(root).filter((x) => x.platform === 'arkts')) {
    const name = `${s.doc.replace(/[^A-Za-z0-9]+/g, '_')}_${s.line}.ets`
    const file = path.join(dir, 'snippets', name)
    fs.writeFileSync(file, s.body)
    files.push(file)
  }
  return files
}
