// Each class exists once however many entries an app imports (instanceof holds across them), and a
// stack trace names the class as the sources do (AgentRuntime, not a bundler's _AgentRuntime).
import * as main from '@arkagent/core'
import * as core from '@arkagent/core/core'

let shared = 0
for (const [name, value] of Object.entries(core)) {
  if (main[name] !== value) throw new Error(`@arkagent/core/core's ${name} is not @arkagent/core's`)
  shared++
}
const frames = []
try {
  new main.ToolRegistry([{}])
} catch (e) {
  frames.push(...String(e.stack).split('\n').filter((l) => l.trim().startsWith('at ')))
}
if (!frames.some((l) => /at ToolRegistry\.register /.test(l))) throw new Error(`no "ToolRegistry.register" frame:\n${frames.join('\n')}`)
const renamed = Object.entries(main).filter(([name, v]) => typeof v === 'function' && v.name !== name && !/^[a-z]/.test(name))
if (renamed.length > 0) throw new Error(`classes whose name differs from their export: ${renamed.map(([n, v]) => `${n} (${v.name})`).join(', ')}`)
const mangled = frames.filter((l) => /at _[A-Z]/.test(l))
if (mangled.length > 0) throw new Error(`renamed classes in a stack trace:\n${mangled.join('\n')}`)
console.log(`${shared} exports of /core identical in the main entry; stack frames name ToolRegistry.register`)
