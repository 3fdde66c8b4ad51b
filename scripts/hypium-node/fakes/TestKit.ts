// Node fake of @kit.TestKit abilityDelegatorRegistry: an app context whose directories live in a
// scratch folder, and the runner's parameters ('-s name value' on a device).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hypium-app-'))
const dir = (name: string) => {
  const p = path.join(root, name)
  fs.mkdirSync(p, { recursive: true })
  return p
}
const context = {
  stageMode: true, cacheDir: dir('cache'), tempDir: dir('temp'), filesDir: dir('files'), databaseDir: dir('database'),
  preferencesDir: dir('preferences'), bundleCodeDir: dir('bundle'), getApplicationContext: () => context,
}
const parameters: Record<string, string> = {}

export function configure(params: Record<string, string>): void {
  Object.assign(parameters, params)
}
export function cleanUp(): void {
  fs.rmSync(root, { recursive: true, force: true })
}

export const abilityDelegatorRegistry = {
  getAbilityDelegator: () => ({ getAppContext: () => context }),
  getArguments: () => ({ bundleName: 'com.arkagent.test', parameters, testCaseNames: '', testRunnerClassName: 'OpenHarmonyTestRunner' }),
}
