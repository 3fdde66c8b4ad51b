// The ArkUI decorators a HAR's non-UI classes may carry (`@Observed` view models). On a device the
// ArkUI runtime turns the class into an observed proxy; under Node there is no UI to notify, so the
// decorator leaves the class as it is. Imported before any suite so the globals exist at load time.
const g = globalThis as Record<string, unknown>
g.Observed = <T>(target: T): T => target
