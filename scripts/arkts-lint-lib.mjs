// Runs the ArkTS 1.1 linter shipped in `ohos-typescript` over .ets files.
import { createRequire } from 'node:module'
import path from 'node:path'
import fs from 'node:fs'

const require = createRequire(import.meta.url)
const ts = require('ohos-typescript')
const here = path.dirname(new URL(import.meta.url).pathname)

/** Lists files under `dir` (recursively) whose names end with one of `exts`. */
export function listFiles(dir, exts) {
  const out = []
  if (!fs.existsSync(dir)) return out
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listFiles(p, exts))
    else if (exts.some((e) => entry.name.endsWith(e))) out.push(p)
  }
  return out.sort()
}

/** The project's own API 12 declarations (SDK layout: api/, kits/, component/). */
export const ohosTypesDir = path.join(here, 'arkts-types', 'ohos')

/**
 * What DevEco gives a HarmonyOS module and the core lint does not: `@kit.*`/`@ohos.*` imports
 * resolved to ohosTypesDir, the ArkUI component globals, and the ets options that make
 * `struct`, decorators and component blocks (`Column() { ... }.width(...)`) parse.
 * Pass the result's fields to lintArkTs; `extraPaths` adds module mappings (e.g. a HAR's name).
 */
export function ohosEnvironment(extraPaths = {}) {
  return {
    declarationFiles: listFiles(path.join(ohosTypesDir, 'component'), ['.d.ts']),
    pathsMap: {
      '@kit.*': [path.join(ohosTypesDir, 'kits', '@kit.*')],
      '@ohos.*': [path.join(ohosTypesDir, 'api', '@ohos.*')],
      ...extraPaths,
    },
    ets: JSON.parse(fs.readFileSync(path.join(ohosTypesDir, 'ets-options.json'), 'utf8')),
  }
}

/**
 * Lints `files` (absolute .ets/.ts paths) and returns {errors, warnings, messages}.
 * `declarationFiles` are extra global declarations (ArkUI components), `pathsMap` maps module
 * names to files (the @kit/@ohos declarations), `ets` replaces the default ets options.
 */
export function lintArkTs(files, declarationFiles = [], pathsMap = {}, ets = etsOptions()) {
  const options = {
    target: ts.ScriptTarget.ES2021,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.NodeJs,
    lib: ['lib.es2021.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    experimentalDecorators: true,
    baseUrl: '/',
    paths: pathsMap,
    needDoArkTsLinter: true,
    isCompatibleVersion: false,
    compatibleSdkVersion: 12,
    ets,
  }
  const roots = [path.join(here, 'arkts-types', 'globals.d.ts'), ...declarationFiles, ...files]
  const host = ts.createIncrementalCompilerHost(options, ts.sys)
  const builder = ts.createIncrementalProgramForArkTs({ rootNames: roots, options, host })
  const program = builder.getProgram()
  const diags = [
    ...program.getSyntacticDiagnostics(),
    ...program.getSemanticDiagnostics().filter((d) => !d.file || files.includes(path.resolve(d.file.fileName))),
    ...ts.ArkTSLinter_1_1.runArkTSLinter(builder, undefined, undefined, 'ArkTS_1_1'),
  ]
  const messages = []
  let errors = 0
  let warnings = 0
  const seen = new Set()
  for (const d of diags) {
    // The ArkUI compiler requires @ObjectLink/@Link/@Consume fields to be left uninitialised (the
    // parent supplies them); plain tsc reports those as TS2564. Only that pairing is exempt.
    if (d.code === 2564 && d.file && /@(ObjectLink|Link|Consume)\b/.test(lineOf(d.file, d.start))) continue
    const where = d.file
      ? `${path.relative(process.cwd(), d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}`
      : '(global)'
    const isError = d.category === ts.DiagnosticCategory.Error
    const line = `${where} ${isError ? 'error' : 'warning'} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
    if (seen.has(line)) continue
    seen.add(line)
    if (isError) errors++
    else warnings++
    messages.push(line)
  }
  return { errors, warnings, messages }
}

function lineOf(file, pos) {
  const { line } = file.getLineAndCharacterOfPosition(pos)
  const starts = file.getLineStarts()
  return file.text.slice(starts[line], line + 1 < starts.length ? starts[line + 1] : file.text.length)
}

function etsOptions() {
  const cfg = path.join(here, 'arkts-types', 'ets-options.json')
  if (fs.existsSync(cfg)) return JSON.parse(fs.readFileSync(cfg, 'utf8'))
  return {
    render: { method: ['build', 'pageTransition'], decorator: ['Builder'] },
    components: [],
    libs: [],
    extend: { decorator: ['Extend', 'AnimatableExtend'], components: [] },
    styles: { decorator: 'Styles', component: { name: 'Common', type: 'T', instance: 'i' }, property: 'stateStyles' },
    concurrent: { decorator: 'Concurrent' },
    propertyDecorators: [],
    emitDecorators: [],
    syntaxComponents: { paramsUICallback: [], attrUICallback: [] },
  }
}
