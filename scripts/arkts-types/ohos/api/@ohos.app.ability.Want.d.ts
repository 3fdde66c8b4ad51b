// @ohos.app.ability.Want (API 12).
export default class Want {
  bundleName?: string;
  abilityName?: string;
  moduleName?: string;
  uri?: string;
  action?: string;
  parameters?: Record<string, Object>;
}
