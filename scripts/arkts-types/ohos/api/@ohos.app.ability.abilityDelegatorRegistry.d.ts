// @ohos.app.ability.abilityDelegatorRegistry (API 12): what instrumented tests use to get a context.
import Context from './application/Context';

declare namespace abilityDelegatorRegistry {
  interface AbilityDelegator {
    getAppContext(): Context;
  }

  interface AbilityDelegatorArgs {
    bundleName: string;
    parameters: Record<string, string>;
    testCaseNames: string;
    testRunnerClassName: string;
  }

  function getAbilityDelegator(): AbilityDelegator;
  function getArguments(): AbilityDelegatorArgs;
}

export default abilityDelegatorRegistry;
