// Bundle entry: runs List.test.ets through the real @ohos/hypium runner (Hypium.hypiumTest) with a
// Node stand-in for the AbilityDelegator, and resolves with the suite tree once the run finished.
import './fakes/ArkUIGlobals'
import { Core, Hypium } from '@ohos/hypium'
import testsuite from '../../agent_core/src/ohosTest/ets/test/List.test.ets'
import { configure } from './fakes/TestKit'
export { cleanUp } from './fakes/TestKit'
import { violations } from './fakes/BusinessError'
import { TestEnv } from '../../agent_core/src/ohosTest/ets/test/support/TestEnv.ets'

export interface SpecResult { name: string, status: 'pass' | 'fail' | 'error', message: string }
export interface SuiteResult { name: string, specs: SpecResult[], hookError: string }
export interface RunResult { suites: SuiteResult[], report: string[], violations: string[], skipped: string[] }

interface HypiumSpec { description: string, pass?: boolean, fail?: Error, error?: Error }
interface HypiumSuite { description: string, specs: HypiumSpec[], childSuites: HypiumSuite[], hookError: Error | null }

function collect(suite: HypiumSuite, prefix: string, out: SuiteResult[]): void {
  const name = prefix.length > 0 ? `${prefix} > ${suite.description}` : suite.description
  if (suite.description !== '' && (suite.specs.length > 0 || suite.hookError !== null)) {
    out.push({
      name,
      hookError: suite.hookError !== null ? String(suite.hookError.message) : '',
      specs: suite.specs.map((s) => ({
        name: s.description,
        status: s.error ? 'error' : s.fail ? 'fail' : s.pass === true ? 'pass' : 'error',
        message: s.error ? String(s.error.stack ?? s.error.message) : s.fail ? String(s.fail.message) : s.pass === true ? '' : 'not run',
      })),
    })
  }
  for (const child of suite.childSuites) collect(child, suite.description === '' ? '' : name, out)
}

export function runSuites(parameters: Record<string, string>): Promise<RunResult> {
  configure(parameters)
  const report: string[] = []
  return new Promise<RunResult>((resolve) => {
    const delegator = {
      printSync: (message: string) => { report.push(message) },
      print: async (message: string) => { report.push(message) },
      finishTest: (_message: string, _code: number, callback: () => void) => {
        const suites: SuiteResult[] = []
        collect(Core.getInstance().getDefaultService('suite').rootSuite as HypiumSuite, '', suites)
        resolve({ suites, report, violations: [...violations], skipped: [...TestEnv.skipped] })
        callback()
      },
      executeShellCommand: () => { throw new Error('no shell on Node') },
    }
    Hypium.hypiumTest(delegator, { bundleName: 'com.arkagent.test', parameters }, testsuite)
  })
}
