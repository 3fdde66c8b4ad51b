// @ohos.app.ability.UIAbility (API 12): the lifecycle callbacks. onDestroy may return a Promise
// since API 12; the system does not call it when it kills a backgrounded process.
import AbilityConstant from './@ohos.app.ability.AbilityConstant';
import Want from './@ohos.app.ability.Want';
import window from './@ohos.window';
import UIAbilityContext from './application/UIAbilityContext';

export default class UIAbility {
  context: UIAbilityContext;
  launchWant: Want;
  lastRequestWant: Want;
  onCreate(want: Want, launchParam: AbilityConstant.LaunchParam): void;
  onWindowStageCreate(windowStage: window.WindowStage): void;
  onWindowStageDestroy(): void;
  onWindowStageRestore(windowStage: window.WindowStage): void;
  onDestroy(): void | Promise<void>;
  onForeground(): void;
  onBackground(): void;
  onNewWant(want: Want, launchParam: AbilityConstant.LaunchParam): void;
}
