// Node fake of @kit.PerformanceAnalysisKit hilog: formats like a release device (%{private}
// arguments print as <private>) and keeps the lines for inspection.
export const hilogLines: string[] = []

function format(fmt: string, args: unknown[]): string {
  let i = 0
  return fmt.replace(/%\{(public|private)\}[sdf]|%[sdf]/g, (m) => (m.includes('public') ? String(args[i++]) : (i++, '<private>')))
}

function log(level: string) {
  return (domain: number, tag: string, fmt: string, ...args: unknown[]): void => {
    const line = `${level} ${domain.toString(16).padStart(4, '0')}/${tag}: ${format(fmt, args)}`
    hilogLines.push(line)
    if (process.env.HYPIUM_VERBOSE) console.log(line)
  }
}

export const hilog = {
  debug: log('D'), info: log('I'), warn: log('W'), error: log('E'), fatal: log('F'),
  isLoggable: () => true, LogLevel: { DEBUG: 3, INFO: 4, WARN: 5, ERROR: 6, FATAL: 7 },
}
