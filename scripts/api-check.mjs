// Part of `npm test`: the public API of @arkagent/core, looked up and reviewed.
//
// 1. The API reference: TypeDoc over the package's entries (@arkagent/core, /mcp, /zod; /core is
//    part of the first). Fails on any TypeDoc warning (a type the surface uses but does not export,
//    a broken link), on any exported class, function, interface, enum, type or constant without a
//    doc comment, and on any undocumented public member of an event, RunOutcome, RestoreReport,
//    createAgent's options or FunctionTool. `node scripts/api-check.mjs --out docs/api` keeps the HTML (it is not committed).
// 2. The API report: API Extractor over the built declaration files of every entry, compared with
//    the reports checked in under shared-ts/api/. A change to the public surface fails until the
//    report is updated (`node scripts/api-check.mjs --write`), so every such change shows in review.
// Prints one line per check and "N passed, N failed".
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { repoRoot } from './sync-core.mjs'

const write = process.argv.includes('--write')
const outArg = process.argv.indexOf('--out')
const pkg = path.join(repoRoot, 'shared-ts')
const ENTRIES = [['index', 'src/index.ts', 'dist/index.d.ts'], ['core', 'src/core/index.ts', 'dist/core/index.d.ts'],
  ['mcp', 'src/mcp.ts', 'dist/mcp.d.ts'], ['zod', 'src/zod.ts', 'dist/zod.d.ts']]
let passed = 0
let failed = 0
async function step(name, fn) {
  try {
    const note = await fn()
    passed++
    console.log(`ok   ${name}${note ? `: ${note}` : ''}`)
  } catch (e) {
    failed++
    console.log(`FAIL ${name}\n${e instanceof Error ? e.message : String(e)}`.trimEnd())
  }
}

await step('API reference (TypeDoc): every export documented, no warnings', async () => {
  const td = await import('typedoc')
  const out = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-api-'))
  const warnings = []
  const app = await td.Application.bootstrapWithPlugins({
    entryPoints: ENTRIES.filter(([name]) => name !== 'core').map(([, src]) => path.join(pkg, src)),
    tsconfig: path.join(repoRoot, 'tsconfig.json'),
    out,
    name: '@arkagent/core',
    readme: path.join(pkg, 'README.md'),
    excludePrivate: true,
    excludeInternal: true,
    disableGit: true,
    sourceLinkTemplate: 'https://github.com/arkagent/arkagent/blob/main/shared-ts/{path}#L{line}',
    validation: { notExported: true, invalidLink: true, notDocumented: false },
    logLevel: 'Warn',
  })
  app.logger.log = (message, level) => {
    if (level >= td.LogLevel.Warn) warnings.push(String(message))
  }
  const project = await app.convert()
  if (project === undefined) throw new Error(`TypeDoc could not convert the sources:\n${warnings.join('\n')}`)
  app.validate(project)
  // Every exported declaration (not each member) carries a doc comment.
  const K = td.ReflectionKind
  const undocumented = []
  for (const r of project.getReflectionsByKind(K.Class | K.Interface | K.Enum | K.TypeAlias | K.Variable | K.Function)) {
    if (!(r.parent?.kindOf(K.Module) || r.parent?.kindOf(K.Project))) continue
    const comment = r.comment ?? r.signatures?.[0]?.comment ?? r.type?.declaration?.signatures?.[0]?.comment
    if (comment === undefined || comment.summary.every((part) => part.text.trim() === '')) {
      undocumented.push(`${r.getFullName()} (${K[r.kind]}, ${r.sources?.[0]?.fileName ?? '?'})`)
    }
  }
  // What a user looks up member by member: every event (a BusEvent), what a run and a restore return,
  // createAgent's options and FunctionTool — each public field and method documented.
  const MEMBERS_OF = ['RunOutcome', 'RestoreReport', 'AgentOptions', 'FunctionTool', 'BusEvent']
  for (const r of project.getReflectionsByKind(K.Class | K.Interface)) {
    const event = (r.extendedTypes ?? []).some((t) => t.toString() === 'BusEvent')
    if (!event && !MEMBERS_OF.includes(r.name)) continue
    for (const m of r.children ?? []) {
      if (m.kindOf(K.Constructor) || m.flags.isPrivate || m.flags.isProtected || m.inheritedFrom !== undefined) continue
      const comment = m.comment ?? m.signatures?.[0]?.comment ?? m.getSignature?.comment
      if (comment === undefined || comment.summary.every((part) => part.text.trim() === '')) {
        undocumented.push(`${r.getFullName()}.${m.name} (${K[m.kind]})`)
      }
    }
  }
  if (undocumented.length > 0) warnings.push(...undocumented.map((u) => `no doc comment: ${u}`))
  if (warnings.length > 0) throw new Error(warnings.join('\n'))
  await app.generateDocs(project, out)
  const pages = fs.readdirSync(out, { recursive: true }).filter((f) => String(f).endsWith('.html')).length
  if (outArg < 0) fs.rmSync(out, { recursive: true, force: true })
  return `${project.getReflectionsByKind(K.Class | K.Interface | K.Enum | K.TypeAlias | K.Variable | K.Function).length} declarations, ${pages} pages${outArg > 0 ? ` in ${out}` : ''}`
})

await step('API report (API Extractor) matches shared-ts/api/', async () => {
  execFileSync(process.execPath, ['build.mjs'], { cwd: pkg, stdio: ['ignore', 'ignore', 'inherit'] })
  const { Extractor, ExtractorConfig } = await import('@microsoft/api-extractor')
  const reportFolder = path.join(pkg, 'api')
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'arkagent-api-report-'))
  const changed = []
  const problems = []
  try {
    for (const [name, , dts] of ENTRIES) {
      const config = ExtractorConfig.prepare({
        configObject: {
          projectFolder: pkg,
          mainEntryPointFilePath: path.join(pkg, dts),
          compiler: { overrideTsconfig: { compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler',
            lib: ['ES2022'], types: ['node'], strict: true, skipLibCheck: true, typeRoots: [path.join(repoRoot, 'node_modules', '@types')] },
          include: ['dist'] } },
          apiReport: { enabled: true, reportFolder, reportTempFolder: temp, reportFileName: `${name}.api.md` },
          docModel: { enabled: false }, dtsRollup: { enabled: false }, tsdocMetadata: { enabled: false },
          messages: {
            // Members are checked by TypeDoc's step (declarations); /mcp and /zod use the main entry's types by design.
            extractorMessageReporting: { default: { logLevel: 'warning' }, 'ae-missing-release-tag': { logLevel: 'none' },
              'ae-undocumented': { logLevel: 'none' }, 'ae-forgotten-export': { logLevel: name === 'mcp' || name === 'zod' ? 'none' : 'warning' } },
            tsdocMessageReporting: { default: { logLevel: 'none' } },
            compilerMessageReporting: { default: { logLevel: 'warning' } },
          },
        },
        configObjectFullPath: path.join(pkg, 'api-extractor.json'),
        packageJsonFullPath: path.join(pkg, 'package.json'),
      })
      const result = Extractor.invoke(config, {
        localBuild: write,
        messageCallback: (m) => {
          m.handled = true
          if ((m.logLevel === 'warning' || m.logLevel === 'error') && !m.messageId.startsWith('console-')) problems.push(`${name}: ${m.messageId}: ${m.text}`)
        },
      })
      if (result.apiReportChanged && !write) changed.push(`shared-ts/api/${name}.api.md`)
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true })
  }
  if (problems.length > 0) throw new Error(problems.join('\n'))
  if (changed.length > 0) {
    throw new Error(`the public API changed: ${changed.join(', ')} differ from the surface. Review the change, then run ` +
      '`node scripts/api-check.mjs --write` and commit the reports.')
  }
  return `${ENTRIES.length} entries${write ? ' (reports written)' : ''}`
})

console.log(`${passed} passed, ${failed} failed`)
process.exitCode = failed === 0 ? 0 : 1
