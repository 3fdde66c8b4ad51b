// @ohos.app.ability.common (API 12): context type aliases.
import * as _Context from './application/Context';
import * as _UIAbilityContext from './application/UIAbilityContext';

declare namespace common {
  type Context = _Context.default;
  type UIAbilityContext = _UIAbilityContext.default;
}

export default common;
