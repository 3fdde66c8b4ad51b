// The code blocks of the documentation (the READMEs and docs/), and what checks each one.
//
// - `npm run lint:har` (scripts/arkts-lint-har.mjs) lints, as .ets files, errors and warnings alike,
//   every ArkTS block of the HarmonyOS documents (HARMONY_DOCS) and every ArkTS block of any other
//   document that builds a runtime (`new AgentRuntime(` or `createAgent(`). A block is ArkTS when its
//   fence says `ets`/`arkts`, when it imports '@arkagent/agent_core', a kit or an @ohos module, when
//   it has ArkUI decorators or a `struct`, or — in the HarmonyOS documents — when it is any
//   TypeScript-like block that is not a Node one: no ArkTS block there escapes by lacking an import.
// - The app's `AppAgent` class is one of those blocks (`export class AppAgent`): every document that
//   shows it shows the same text, and the other snippets are linted against it (written as
//   `agent/AppAgent.ets`, which they import as '../agent/AppAgent').
// - A Node block that builds a runtime (`new AgentRuntime(` or `createAgent(`) must appear verbatim
//   in a file under examples/ that a test runs (examples/snippets/DocSnippets.test.ts).
// - A block that builds a runtime builds one the approval gate covers: no opt-out in a snippet.
// - docs/harmonyos.zh.md is the Chinese docs/harmonyos.md: the same code blocks in the same order,
//   and the two link to each other.
import fs from 'node:fs'
import path from 'node:path'
import { repoRoot } from './sync-core.mjs'

/** The documents whose snippets are checked. */
export function docFiles(root = repoRoot) {
  const docs = fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)
  return ['README.md', 'shared-ts/README.md', 'agent_core/README.md', ...docs]
}

/** Documents for HarmonyOS developers: every TypeScript-like block in them that is not Node code is ArkTS. */
export const HARMONY_DOCS = ['README.md', 'agent_core/README.md', 'docs/harmonyos.md', 'docs/harmonyos.zh.md']

/** The English document and its Chinese translation (same code blocks). */
export const TRANSLATIONS = [['docs/harmonyos.md', 'docs/harmonyos.zh.md']]

const BUILDS = /new AgentRuntime\(|createAgent\(/
const ARKTS_LANGS = new Set(['ets', 'arkts'])
const TS_LANGS = new Set(['', 'ts', 'typescript', 'js', 'javascript', 'mjs'])
const ARKTS_MARKS = /from '@arkagent\/agent_core'|from '@kit\.|from '@ohos\.|^\s*@(Entry|Component|ComponentV2|Builder|Observed|ObservedV2)\b|^\s*(export\s+)?struct\s/m
const NODE_MARKS = /from '@arkagent\/core|from 'node:|from 'pg'|require\(/
/** A block without a language that holds code, not a tree or a transcript. */
const CODE_MARKS = /^\s*(import|export|const|let|class|function|async)\b|=>/m
/** What no snippet that builds a runtime may do: it would not be safe by default. */
const OPT_OUTS = /runDangerousToolsWithoutApproval|approval:\s*false/

/**
 * Every fenced block (``` or ~~~, indented ones inside lists included, dedented):
 * { doc, line, lang, body, platform: 'arkts' | 'node' | 'other' }.
 */
export function codeBlocks(root = repoRoot) {
  const out = []
  for (const doc of docFiles(root)) {
    const text = fs.readFileSync(path.join(root, doc), 'utf8')
    const fence = /^([ \t]*)(```|~~~)[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)^\1\2[ \t]*$/gm
    for (let m = fence.exec(text); m !== null; m = fence.exec(text)) {
      const indent = m[1]
      const lang = m[3].toLowerCase()
      const body = indent.length === 0 ? m[4] :
        m[4].split('\n').map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart())).join('\n')
      const line = text.slice(0, m.index).split('\n').length
      out.push({ doc, line, lang, body, platform: platformOf(doc, lang, body) })
    }
  }
  return out
}

function platformOf(doc, lang, body) {
  if (ARKTS_LANGS.has(lang) || ARKTS_MARKS.test(body)) return 'arkts'
  if (NODE_MARKS.test(body)) return 'node'
  if (HARMONY_DOCS.includes(doc) && TS_LANGS.has(lang) && (lang !== '' || CODE_MARKS.test(body))) return 'arkts'
  return TS_LANGS.has(lang) && lang !== '' ? 'node' : 'other'
}

/** Every fenced block that builds a runtime: { doc, line, lang, body, platform: 'arkts' | 'node' }. */
export function runtimeSnippets(root = repoRoot) {
  return codeBlocks(root).filter((b) => BUILDS.test(b.body))
    .map((b) => ({ ...b, platform: b.platform === 'arkts' ? 'arkts' : 'node' }))
}

/**
 * The ArkTS blocks the lint checks: every one in the HarmonyOS documents, and in any other document
 * every one that builds a runtime.
 */
export function arktsSnippets(root = repoRoot) {
  return codeBlocks(root).filter((b) => b.platform === 'arkts' && (HARMONY_DOCS.includes(b.doc) || BUILDS.test(b.body)))
}

/** Whether a block is the app's AppAgent class. */
export function isAppAgent(block) {
  return /^export class AppAgent\b/m.test(block.body)
}

/**
 * Problems of the documentation that are not lint messages: AppAgent shown differently in two
 * places (or nowhere while snippets import it), a snippet that builds a runtime with the approval
 * gate turned off, a translation whose code blocks differ from its original's, or documents that do
 * not link to each other. Each problem is one line naming where it is.
 */
export function docProblems(root = repoRoot) {
  const problems = []
  const blocks = codeBlocks(root)
  const agents = blocks.filter(isAppAgent)
  for (const a of agents.slice(1)) {
    if (a.body !== agents[0].body) {
      problems.push(`${a.doc}:${a.line}: AppAgent differs from ${agents[0].doc}:${agents[0].line} (show one class, the same everywhere)`)
    }
  }
  const importers = blocks.filter((b) => b.platform === 'arkts' && /from '\.\.\/agent\/AppAgent'/.test(b.body))
  if (importers.length > 0 && agents.length === 0) {
    problems.push(`${importers[0].doc}:${importers[0].line}: imports AppAgent, but no document shows the class`)
  }
  for (const b of blocks.filter((x) => BUILDS.test(x.body) && OPT_OUTS.test(x.body))) {
    problems.push(`${b.doc}:${b.line}: builds a runtime with the approval gate off (${OPT_OUTS.exec(b.body)[0]}); ` +
      'snippets show the safe default')
  }
  for (const [original, translation] of TRANSLATIONS) {
    if (!fs.existsSync(path.join(root, translation))) {
      problems.push(`${translation}: missing (the translation of ${original})`)
      continue
    }
    const a = blocks.filter((b) => b.doc === original)
    const t = blocks.filter((b) => b.doc === translation)
    for (let i = 0; i < Math.max(a.length, t.length); i++) {
      if (a[i] === undefined || t[i] === undefined || a[i].lang !== t[i].lang || a[i].body !== t[i].body) {
        const where = t[i] !== undefined ? `${translation}:${t[i].line}` : translation
        problems.push(`${where}: code block ${i + 1} differs from ${original}` +
          `${a[i] !== undefined ? `:${a[i].line}` : ''} (a translation keeps every code block as it is)`)
        break
      }
    }
    const read = (doc) => fs.readFileSync(path.join(root, doc), 'utf8')
    if (!read(original).includes(path.basename(translation))) problems.push(`${original}: does not link to ${translation}`)
    if (!new RegExp(`\\]\\(${path.basename(original).replace('.', '\\.')}[)#]`).test(read(translation))) {
      problems.push(`${translation}: does not link to ${original}`)
    }
  }
  return problems
}

/**
 * Writes every ArkTS snippet into `dir`: the AppAgent class as `agent/AppAgent.ets`, each other
 * snippet as `snippets/<doc>_<line>.ets` (a block repeated verbatim — a translation's — once).
 * Returns { files, locations }: the files to lint and, for each, the doc locations it stands for.
 */
export function writeArkTsSnippets(dir, root = repoRoot) {
  fs.mkdirSync(path.join(dir, 'agent'), { recursive: true })
  fs.mkdirSync(path.join(dir, 'snippets'), { recursive: true })
  const files = []
  const locations = new Map()
  const byBody = new Map()
  for (const s of arktsSnippets(root)) {
    const where = `${s.doc}:${s.line}`
    const known = byBody.get(s.body)
    if (known !== undefined) {
      locations.get(known).push(where)
      continue
    }
    const name = isAppAgent(s) ? path.join('agent', 'AppAgent.ets') :
      path.join('snippets', `${s.doc.replace(/[^A-Za-z0-9]+/g, '_')}_${s.line}.ets`)
    const file = path.join(dir, name)
    if (fs.existsSync(file)) continue // a second, different AppAgent: reported by docProblems
    fs.writeFileSync(file, s.body)
    files.push(file)
    byBody.set(s.body, file)
    locations.set(file, [where])
  }
  return { files, locations }
}
