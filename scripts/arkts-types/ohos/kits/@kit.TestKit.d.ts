import abilityDelegatorRegistry from '@ohos.app.ability.abilityDelegatorRegistry';

export { abilityDelegatorRegistry };
