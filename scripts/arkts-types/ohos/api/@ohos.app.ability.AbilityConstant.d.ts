// @ohos.app.ability.AbilityConstant (API 12): why an ability was launched and how it last exited.
declare namespace AbilityConstant {
  export interface LaunchParam {
    launchReason: LaunchReason;
    lastExitReason: LastExitReason;
    lastExitMessage: string;
  }

  export enum LaunchReason {
    UNKNOWN = 0,
    START_ABILITY = 1,
    CALL = 2,
    CONTINUATION = 3,
    APP_RECOVERY = 4,
    SHARE = 5,
    AUTO_STARTUP = 8,
    INSIGHT_INTENT = 9
  }

  export enum LastExitReason {
    UNKNOWN = 0,
    ABILITY_NOT_RESPONDING = 1,
    NORMAL = 2,
    CPP_CRASH = 3,
    JS_ERROR = 4,
    APP_FREEZE = 5,
    PERFORMANCE_CONTROL = 6,
    RESOURCE_CONTROL = 7,
    UPGRADE = 8
  }
}

export default AbilityConstant;
