// agent_core/consumer-rules.txt — the obfuscation rules applied to apps that depend on the HAR — is
// generated from the AgentHook class: every member an app may override (each hook slot, `hookName`)
// is a property name the runtime calls, so a release build that renames it in the app's subclass
// silently turns the hook off. This script reads the members from shared-ts/src/core/hook/AgentHook.ts
// with the TypeScript parser and
//   node scripts/check-consumer-rules.mjs           fails (exit 1) when the committed file differs
//   node scripts/check-consumer-rules.mjs --write   writes the file
// `npm test` runs the check.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { repoRoot } from './sync-core.mjs'

const require = createRequire(import.meta.url)
const ts = require('typescript')

const HOOK_SOURCE = 'shared-ts/src/core/hook/AgentHook.ts'
const RULES_FILE = 'agent_core/consumer-rules.txt'

/** Names called by name on objects apps write that are not AgentHook members, and why. */
const EXTRA_NAMES = [
  ['onEvent', 'observers and stream sinks an app passes to runStream / the providers'],
  ['toJSON', 'objects serialised with JSON.stringify'],
]

/** The names of AgentHook's members an app may override (not private or protected), in order. */
export function hookMemberNames(root = repoRoot) {
  const file = path.join(root, HOOK_SOURCE)
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const names = []
  let found = false
  const visit = (node) => {
    if (ts.isClassDeclaration(node) && node.name?.text === 'AgentHook') {
      found = true
      for (const member of node.members) {
        if (ts.isConstructorDeclaration(member) || member.name === undefined) continue
        const hidden = (ts.getCombinedModifierFlags(member) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) !== 0 ||
          ts.isPrivateIdentifier(member.name)
        const name = member.name.getText(source)
        if (!hidden && !names.includes(name)) names.push(name)
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  if (!found || names.length === 0) throw new Error(`no class AgentHook with members in ${HOOK_SOURCE}`)
  return names
}

/** The rules file as it must be. */
export function consumerRules(root = repoRoot) {
  const hooks = hookMemberNames(root)
  return [
    '# Applied to apps that depend on @arkagent/agent_core and obfuscate their release build.',
    `# Generated from AgentHook (${HOOK_SOURCE}) by scripts/check-consumer-rules.mjs --write;`,
    '# do not edit by hand (`npm test` fails when this file and the class disagree).',
    '# Apps subclass AgentHook and the runtime calls the overrides by name; saved sessions and',
    '# provider JSON are read by property name. Keep the hook slots and the HAR\'s sources.',
    '-keep-property-name',
    '# AgentHook: every member an app may override',
    ...hooks,
    ...EXTRA_NAMES.flatMap(([name, why]) => [`# ${why}`, name]),
    '-keep',
    './oh_modules/@arkagent/agent_core',
    '',
  ].join('\n')
}

/** Property names a rules text keeps (between -keep-property-name and the next option). */
function keptNames(text) {
  const out = []
  let inNames = false
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) continue
    if (line.startsWith('-')) {
      inNames = line === '-keep-property-name'
      continue
    }
    if (inNames) out.push(line)
  }
  return out
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)
if (isMain) {
  const file = path.join(repoRoot, RULES_FILE)
  const wanted = consumerRules()
  if (process.argv.includes('--write')) {
    fs.writeFileSync(file, wanted)
    console.log(`${RULES_FILE}: written (${hookMemberNames().length} AgentHook members + ${EXTRA_NAMES.length} more)`)
  } else {
    const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : ''
    if (committed === wanted) {
      console.log(`${RULES_FILE}: keeps every AgentHook member (${hookMemberNames().join(', ')}) and ` +
        `${EXTRA_NAMES.map((e) => e[0]).join(', ')}`)
    } else {
      const kept = keptNames(committed)
      const missing = keptNames(wanted).filter((n) => !kept.includes(n))
      const extra = kept.filter((n) => !keptNames(wanted).includes(n))
      console.log(`${RULES_FILE} is not what AgentHook (${HOOK_SOURCE}) gives` +
        (missing.length > 0 ? `; it does not keep: ${missing.join(', ')}` : '') +
        (extra.length > 0 ? `; it keeps names no longer there: ${extra.join(', ')}` : '') +
        '. Run: node scripts/check-consumer-rules.mjs --write')
      process.exitCode = 1
    }
  }
}
