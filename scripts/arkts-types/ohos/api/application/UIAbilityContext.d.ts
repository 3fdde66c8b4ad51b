// application/UIAbilityContext (API 12).
import Context from './Context';

export default class UIAbilityContext extends Context {
  terminateSelf(): Promise<void>;
}
