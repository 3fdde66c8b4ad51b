// Node fake of the @kit.AbilityKit values the HAR touches (types need no fake).
export const AbilityConstant = {
  LaunchReason: { UNKNOWN: 0, START_ABILITY: 1, CALL: 2, CONTINUATION: 3, APP_RECOVERY: 4, SHARE: 5, AUTO_STARTUP: 8, INSIGHT_INTENT: 9 },
  LastExitReason: { UNKNOWN: 0, ABILITY_NOT_RESPONDING: 1, NORMAL: 2, CPP_CRASH: 3, JS_ERROR: 4, APP_FREEZE: 5, PERFORMANCE_CONTROL: 6, RESOURCE_CONTROL: 7, UPGRADE: 8 },
}
export const common = {}
export class UIAbility {}
